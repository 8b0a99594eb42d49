import { given } from '../../../test/support/decider-specification';
import { at, now, OF_RUN, queued, started, usage } from '../../../test/support/agent-run-fixtures';
import { AgentRunEvent } from './agent-run.events';
import { agentRunDecider } from './agent-run';

/** The approvals of a run's tool calls: asked for, decided, and the run resumed (the rest is in agent-run.spec.ts). */
describe('agent run decider: approvals', () => {
  const requested: AgentRunEvent = {
    type: 'AgentRunApprovalRequested',
    data: {
      runId: 'agentrun_1',
      approvals: [
        { toolCallId: 'a', tool: 'http_get', args: { url: 'x' }, requestedAt: at },
        { toolCallId: 'b', tool: 'mcp:files/write', args: {}, requestedAt: at },
      ],
      usage,
      attempts: 1,
      at,
    },
  };
  const history = [queued, started, requested];

  it('waits, held by no executor, with the pending calls', () => {
    const state = history.reduce(agentRunDecider.evolve, agentRunDecider.initialState)!;
    expect(state).toMatchObject({
      status: 'waiting',
      executorId: null,
      waitingSince: at,
      pendingApprovals: [{}, {}],
    });
  });

  it('resumes (queued again) only once every pending call is decided', () => {
    given(agentRunDecider, history)
      .when({ type: 'DecideApprovals', decisions: [{ toolCallId: 'a', decision: 'approve' }] }, now)
      .then([
        {
          type: 'AgentRunApprovalsDecided',
          data: { runId: 'agentrun_1', decisions: [{ toolCallId: 'a', decision: 'approve' }], resumed: false, at },
        },
      ]);
    const first: AgentRunEvent = {
      type: 'AgentRunApprovalsDecided',
      data: { runId: 'agentrun_1', decisions: [{ toolCallId: 'a', decision: 'approve' }], resumed: false, at },
    };
    const second: AgentRunEvent = {
      type: 'AgentRunApprovalsDecided',
      data: {
        runId: 'agentrun_1',
        decisions: [{ toolCallId: 'b', decision: 'reject', reason: 'no' }],
        resumed: true,
        at,
      },
    };
    given(agentRunDecider, [...history, first])
      .when({ type: 'DecideApprovals', decisions: [{ toolCallId: 'b', decision: 'reject', reason: 'no' }] }, now)
      .then([second]);
    const state = [...history, first, second].reduce(agentRunDecider.evolve, agentRunDecider.initialState)!;
    expect(state.status).toBe('queued');
    expect(state.decided.map((d) => [d.toolCallId, d.tool, d.decision])).toEqual([
      ['a', 'http_get', 'approve'],
      ['b', 'mcp:files/write', 'reject'],
    ]);
  });

  it('refuses a decision on a run that is not waiting, or on a call that is not pending', () => {
    given(agentRunDecider, [queued, started])
      .when({ type: 'DecideApprovals', decisions: [{ toolCallId: 'a', decision: 'approve' }] })
      .thenRefuses('conflict', /not waiting/);
    given(agentRunDecider, history)
      .when({ type: 'DecideApprovals', decisions: [{ toolCallId: 'zzz', decision: 'approve' }] })
      .thenRefuses('unprocessable');
  });

  it('cancels a waiting run at once, and fails one that waited too long', () => {
    given(agentRunDecider, history)
      .when({ type: 'CancelAgentRun' }, now)
      .then([{ type: 'AgentRunCancelled', data: { runId: 'agentrun_1', ...OF_RUN, usage, attempts: 1, endedAt: at } }]);
    given(agentRunDecider, history).when({ type: 'ExpireApprovals', before: at, timeoutMs: 5 }).then([]);
    const later = new Date('2026-01-01T00:02:00.000Z');
    const expired = agentRunDecider.decide(
      history.reduce(agentRunDecider.evolve, agentRunDecider.initialState),
      { type: 'ExpireApprovals', before: '2026-01-01T00:01:30.000Z', timeoutMs: 5 },
      later,
    );
    expect(expired).toEqual([
      expect.objectContaining({
        type: 'AgentRunFailed',
        data: expect.objectContaining({ error: expect.objectContaining({ code: 'approval_timeout' }) }),
      }),
    ]);
  });
});
