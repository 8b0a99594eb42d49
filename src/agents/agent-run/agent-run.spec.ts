import { given } from '../../../test/support/decider-specification';
import { AgentRunCancelRequested, AgentRunEvent, AgentRunToolCalled } from './agent-run.events';
import { agentRunDecider } from './agent-run';
import { at, now, OF_RUN, queued, started, usage } from '../../../test/support/agent-run-fixtures';

const toolCalled: AgentRunToolCalled = {
  type: 'AgentRunToolCalled',
  data: { runId: 'agentrun_1', callId: 'c1', tool: 'current_time', input: {}, at: '2026-01-01T00:00:02.000Z' },
};
const cancelRequested: AgentRunCancelRequested = {
  type: 'AgentRunCancelRequested',
  data: { runId: 'agentrun_1', requestedAt: '2026-01-01T00:00:03.000Z' },
};
const end = (outcome: { output: string } | { error: { code: string; message: string } } | { cancelled: true }) =>
  ({ type: 'EndAgentRun', executorId: 'x1', outcome, usage, attempts: 1 }) as const;

describe('agent run decider', () => {
  it('queues a run', () => {
    const { id, agentId, task, context } = queued.data;
    const model = 'openai-compatible/m';
    given(agentRunDecider, [])
      .when(
        { type: 'QueueAgentRun', id, agentId, model, agentVersion: 1, task, context },
        new Date(queued.data.createdAt),
      )
      .then([queued]);
  });

  it('records the protocol session a run was asked for in, and shows it', () => {
    const { id, agentId, task, context } = queued.data;
    const source = { protocol: 'mcp' as const, sessionId: 'a5c1e0f2-session' };
    const command = {
      type: 'QueueAgentRun' as const,
      id,
      agentId,
      model: 'openai-compatible/m',
      task,
      context,
      source,
    };
    const [event] = agentRunDecider.decide(null, command, now);
    expect(event).toMatchObject({ type: 'AgentRunQueued', data: { source } });
    expect(agentRunDecider.evolve(null, event)).toMatchObject({ source });
    expect(agentRunDecider.evolve(null, queued)).toMatchObject({ source: null });
  });

  it('refuses to queue the same run twice, but a workflow step queueing its run again is a no-op', () => {
    const { id, agentId, task, context } = queued.data;
    const model = 'openai-compatible/m';
    given(agentRunDecider, [queued])
      .when({ type: 'QueueAgentRun', id, agentId, model, task, context })
      .thenRefuses('conflict');
    const stepRun = { ...queued, data: { ...queued.data, workflowRunId: 'wfrun_1', stepIndex: 0 } };
    given(agentRunDecider, [stepRun])
      .when({ type: 'QueueAgentRun', id, agentId, model, task, context, workflowRunId: 'wfrun_1', stepIndex: 0 })
      .then([]);
  });

  it('is claimed once: a second start is refused', () => {
    given(agentRunDecider, [queued])
      .when(
        { type: 'StartAgentRun', executorId: 'x1', warnings: [], agentVersion: 2 },
        new Date(started.data.startedAt),
      )
      .then([started]);
    given(agentRunDecider, [queued, started])
      .when({ type: 'StartAgentRun', executorId: 'x2', warnings: [] })
      .thenRefuses('conflict');
  });

  it('is queued and claimed in one decision when the local executor has a slot', () => {
    const { id, agentId, task, context, createdAt } = queued.data;
    const model = 'openai-compatible/m';
    const start = { executorId: 'x1', warnings: ['no tool'], agentVersion: 1, outputSchema: { type: 'object' } };
    given(agentRunDecider, [])
      .when({ type: 'QueueAgentRun', id, agentId, model, agentVersion: 1, task, context, start }, new Date(createdAt))
      .then([queued, { type: 'AgentRunStarted', data: { runId: id, ...start, startedAt: createdAt } }]);
    const state = [queued, started].reduce(agentRunDecider.evolve, agentRunDecider.initialState);
    expect(state).toMatchObject({ status: 'running', executorId: 'x1' });
    // A run of that id exists: neither is recorded.
    given(agentRunDecider, [queued])
      .when({ type: 'QueueAgentRun', id, agentId, model, task, context, start })
      .thenRefuses('conflict');
  });

  it('records tool calls only from the instance executing the run', () => {
    given(agentRunDecider, [queued, started])
      .when(
        { type: 'RecordToolCall', executorId: 'x1', callId: 'c1', tool: 'current_time', input: {} },
        new Date(toolCalled.data.at),
      )
      .then([toolCalled]);
    given(agentRunDecider, [queued, started])
      .when({ type: 'RecordToolCall', executorId: 'x2', callId: 'c1', tool: 'current_time', input: {} })
      .thenRefuses('conflict');
  });

  it('ends succeeded, failed or cancelled, naming the workflow step that made it', () => {
    given(agentRunDecider, [queued, started])
      .when(end({ output: 'done' }), now)
      .then([
        {
          type: 'AgentRunSucceeded',
          data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at, output: 'done' },
        },
      ]);
    const error = { code: 'provider_error', message: 'boom' };
    given(agentRunDecider, [queued, started])
      .when(end({ error }), now)
      .then([
        { type: 'AgentRunFailed', data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at, error } },
      ]);
    const stepRun = { ...queued, data: { ...queued.data, workflowRunId: 'wfrun_1', stepIndex: 2 } };
    given(agentRunDecider, [stepRun, started])
      .when(end({ cancelled: true }), now)
      .then([
        {
          type: 'AgentRunCancelled',
          data: {
            runId: 'agentrun_1',
            ...OF_RUN,
            usage,
            attempts: 1,
            endedAt: at,
            workflowRunId: 'wfrun_1',
            stepIndex: 2,
          },
        },
      ]);
  });

  it('a cancel asked for while the run was finishing wins over its success', () => {
    given(agentRunDecider, [queued, started, cancelRequested])
      .when(end({ output: 'done' }), now)
      .then([{ type: 'AgentRunCancelled', data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at } }]);
  });

  it('cancels a queued run at once, asks a running one to stop, and answers a cancelled one again', () => {
    given(agentRunDecider, [queued])
      .when({ type: 'CancelAgentRun' }, now)
      .then([
        { type: 'AgentRunCancelled', data: { runId: 'agentrun_1', ...OF_RUN, usage: null, attempts: 0, endedAt: at } },
      ]);
    given(agentRunDecider, [queued, started])
      .when({ type: 'CancelAgentRun' }, now)
      .then([{ type: 'AgentRunCancelRequested', data: { runId: 'agentrun_1', requestedAt: at } }]);
    given(agentRunDecider, [queued, started, cancelRequested]).when({ type: 'CancelAgentRun' }).then([]);
    const cancelled: AgentRunEvent = {
      type: 'AgentRunCancelled',
      data: { runId: 'agentrun_1', ...OF_RUN, usage: null, attempts: 0, endedAt: at },
    };
    given(agentRunDecider, [queued, cancelled]).when({ type: 'CancelAgentRun' }).then([]);
  });

  it("records a later turn's cancel with the turn, and keeps what the model had written only for interrupt", () => {
    const interrupt = { runId: 'agentrun_2', strategy: 'interrupt' as const };
    const ended = { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at };
    given(agentRunDecider, [queued])
      .when({ type: 'CancelAgentRun', supersededBy: { runId: 'agentrun_2', strategy: 'rollback' } }, now)
      .then([
        {
          type: 'AgentRunCancelled',
          data: { ...ended, usage: null, attempts: 0, supersededBy: { runId: 'agentrun_2', strategy: 'rollback' } },
        },
      ]);
    const asked: AgentRunEvent = { ...cancelRequested, data: { ...cancelRequested.data, supersededBy: interrupt } };
    given(agentRunDecider, [queued, started])
      .when({ type: 'CancelAgentRun', supersededBy: interrupt }, now)
      .then([
        { type: 'AgentRunCancelRequested', data: { runId: 'agentrun_1', requestedAt: at, supersededBy: interrupt } },
      ]);
    given(agentRunDecider, [queued, started, asked])
      .when({ ...end({ cancelled: true }), outcome: { cancelled: true, partialOutput: 'Once upon' } }, now)
      .then([{ type: 'AgentRunCancelled', data: { ...ended, supersededBy: interrupt, partialOutput: 'Once upon' } }]);
    given(agentRunDecider, [queued, started, asked]).thenState(
      expect.objectContaining({ supersededBy: interrupt, cancelRequested: true }),
    );
    // A plain cancel keeps no text: nothing of the run goes to its thread.
    given(agentRunDecider, [queued, started, cancelRequested])
      .when({ ...end({ cancelled: true }), outcome: { cancelled: true, partialOutput: 'Once upon' } }, now)
      .then([{ type: 'AgentRunCancelled', data: ended }]);
  });

  it('refuses to cancel a run that succeeded or failed', () => {
    const succeeded: AgentRunEvent = {
      type: 'AgentRunSucceeded',
      data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at, output: 'x' },
    };
    given(agentRunDecider, [queued, started, succeeded]).when({ type: 'CancelAgentRun' }).thenRefuses('conflict');
  });

  it('ends a run as interrupted only when its lease is stale', () => {
    given(agentRunDecider, [queued, started])
      .when({ type: 'InterruptAgentRun', staleBefore: '2026-01-01T00:00:00.500Z' })
      .then([]);
    given(agentRunDecider, [queued, started])
      .when({ type: 'InterruptAgentRun', staleBefore: '2026-01-01T00:00:30.000Z' }, now)
      .then([
        {
          type: 'AgentRunFailed',
          data: {
            runId: 'agentrun_1',
            ...OF_RUN,
            usage: null,
            attempts: 0,
            endedAt: at,
            error: { code: 'interrupted', message: 'The instance executing the run stopped before it ended' },
          },
        },
      ]);
    const renewed: AgentRunEvent = {
      type: 'AgentRunLeaseRenewed',
      data: { runId: 'agentrun_1', executorId: 'x1', at: '2026-01-01T00:00:40.000Z' },
    };
    given(agentRunDecider, [queued, started, renewed])
      .when({ type: 'InterruptAgentRun', staleBefore: '2026-01-01T00:00:30.000Z' })
      .then([]);
  });

  it('evolves into the run with its tool calls, usage and end', () => {
    const returned: AgentRunEvent = {
      type: 'AgentRunToolReturned',
      data: {
        runId: 'agentrun_1',
        callId: 'c1',
        tool: 'current_time',
        output: { utc: 'x' },
        at: '2026-01-01T00:00:02.500Z',
      },
    };
    const succeeded: AgentRunEvent = {
      type: 'AgentRunSucceeded',
      data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 2, endedAt: at, output: 'It is x' },
    };
    given(agentRunDecider, [queued, started, toolCalled, returned, succeeded]).thenState({
      ...queued.data,
      status: 'succeeded',
      // The version it ran: the one its executor read when it started, after the one it was queued with.
      agentVersion: 2,
      output: 'It is x',
      outputSchema: null,
      outputObject: null,
      threadId: null,
      replayOf: null,
      source: null,
      experimentId: null,
      trial: null,
      scores: [],
      pendingApprovals: [],
      toolCalls: [
        {
          id: 'c1',
          tool: 'current_time',
          input: {},
          output: { utc: 'x' },
          startedAt: toolCalled.data.at,
          endedAt: '2026-01-01T00:00:02.500Z',
        },
      ],
      usage,
      attempts: 2,
      modelAttempts: [],
      answeredModel: 'openai-compatible/m',
      guardrails: [],
      parentRunId: null,
      parentToolCallId: null,
      depth: 0,
      children: [],
      waitingOn: [],
      totalUsage: usage,
      childrenUsage: null,
      handoffs: [],
      answeredBy: 'agent_1',
      startAgentId: null,
      lastHandoff: null,
      inputChecked: false,
      error: null,
      warnings: [],
      workflowRunId: null,
      stepIndex: null,
      cancelRequested: false,
      startedAt: started.data.startedAt,
      endedAt: at,
      executorId: 'x1',
      heartbeatAt: started.data.startedAt,
      decided: [],
      waitingSince: null,
    } as never);
  });
});
