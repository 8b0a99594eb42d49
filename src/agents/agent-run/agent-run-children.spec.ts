import { given } from '../../../test/support/decider-specification';
import { AgentRunChildRunsStarted, AgentRunEvent, AgentRunQueued, AgentRunStarted } from './agent-run.events';
import { agentRunDecider } from './agent-run';
import { ChildRunRequest } from './agent-run.state';

/** A run that calls other agents: it waits for its children, each child's end answers its call, the last resumes it. */
const at = '2026-01-01T00:00:00.000Z';
const queued: AgentRunQueued = {
  type: 'AgentRunQueued',
  data: {
    id: 'agentrun_p',
    agentId: 'agent_s',
    model: 'openai-compatible/m',
    task: 'Plan',
    context: {},
    createdAt: at,
  },
};
const started: AgentRunStarted = {
  type: 'AgentRunStarted',
  data: { runId: 'agentrun_p', executorId: 'x1', warnings: [], startedAt: at },
};
const child = (n: number): ChildRunRequest => ({
  runId: `agentrun_c${n}`,
  agentId: `agent_${n}`,
  agent: `helper-${n}`,
  toolCallId: `call_${n}`,
  task: `Task ${n}`,
  context: {},
});
const calls: AgentRunEvent[] = [1, 2].map((n) => ({
  type: 'AgentRunToolCalled',
  data: { runId: 'agentrun_p', callId: `call_${n}`, tool: `agent:helper-${n}`, input: { task: `Task ${n}` }, at },
}));
const usage = { inputTokens: 10, outputTokens: 4, costUsd: 0.001 };
const childrenStarted: AgentRunChildRunsStarted = {
  type: 'AgentRunChildRunsStarted',
  data: { runId: 'agentrun_p', children: [child(1), child(2)], usage, attempts: 1, at },
};
const waiting = [queued, started, ...calls, childrenStarted];
const childUsage = { inputTokens: 5, outputTokens: 1, costUsd: 0.0005 };
const endChild = (n: number, outcome: { output: string } | { error: { code: string; message: string } }) =>
  ({ type: 'EndChildRun', childRunId: `agentrun_c${n}`, outcome, usage: childUsage }) as const;

describe('agent run decider: child runs', () => {
  it('records the calls with the children they start, once, as runs before this version recorded them apart', () => {
    const withoutCalls = [queued, started, childrenStarted].reduce(agentRunDecider.evolve, null)!;
    const withCalls = waiting.reduce(agentRunDecider.evolve, null)!;
    const expected = [1, 2].map((n) => ({
      id: `call_${n}`,
      tool: `agent:helper-${n}`,
      input: { task: `Task ${n}` },
      startedAt: at,
      endedAt: null,
    }));
    expect(withoutCalls.toolCalls).toEqual(expected);
    expect(withCalls.toolCalls).toEqual(expected);
  });

  it('waits for the children its calls start, holding no executor', () => {
    given(agentRunDecider, [queued, started, ...calls])
      .when(
        { type: 'Wait', executorId: 'x1', approvals: [], children: [child(1), child(2)], usage, attempts: 1 },
        new Date(at),
      )
      .then([childrenStarted]);
    const state = waiting.reduce(agentRunDecider.evolve, null)!;
    expect(state).toMatchObject({
      status: 'waiting',
      executorId: null,
      waitingSince: null,
      waitingOn: [
        { runId: 'agentrun_c1', agent: 'helper-1' },
        { runId: 'agentrun_c2', agent: 'helper-2' },
      ],
    });
  });

  it("answers each call with its child's end, and resumes once the last child has ended", () => {
    given(agentRunDecider, waiting)
      .when(endChild(1, { output: 'one' }), new Date(at))
      .then([
        {
          type: 'AgentRunChildRunEnded',
          data: {
            runId: 'agentrun_p',
            childRunId: 'agentrun_c1',
            callId: 'call_1',
            tool: 'agent:helper-1',
            status: 'succeeded',
            output: 'one',
            usage: childUsage,
            resumed: false,
            at,
          },
        },
      ]);
    const firstEnded = agentRunDecider.decide(
      waiting.reduce(agentRunDecider.evolve, null),
      endChild(1, { output: 'one' }),
      new Date(at),
    );
    const afterFirst = [...waiting, ...firstEnded];
    // Told twice (the executor and the agent-tree manager both tell it): once is recorded.
    given(agentRunDecider, afterFirst)
      .when(endChild(1, { output: 'one' }))
      .then([]);
    const lastEnded = agentRunDecider.decide(
      afterFirst.reduce(agentRunDecider.evolve, null),
      endChild(2, { error: { code: 'provider_error', message: 'down' } }),
      new Date(at),
    );
    expect(lastEnded[0].data).toMatchObject({ status: 'failed', error: 'provider_error: down', resumed: true });
    const resumed = [...afterFirst, ...lastEnded].reduce(agentRunDecider.evolve, null)!;
    expect(resumed.status).toBe('queued');
    expect(resumed.waitingOn).toEqual([]);
    expect(resumed.toolCalls.map((call) => call.output ?? call.error)).toEqual(['one', 'provider_error: down']);
    // Its own usage, and its children's.
    expect(resumed.totalUsage).toEqual({ inputTokens: 20, outputTokens: 6, costUsd: 0.002 });
  });

  it("claims the run with the last child's end when the end carries a claim, and only then", () => {
    const claim = { executorId: 'x2', warnings: [], agentVersion: 3 };
    const withClaim = (n: number) => ({ ...endChild(n, { output: `answer ${n}` }), start: claim });
    // Not the last child: its end is recorded alone, and the claim with it is not.
    const first = agentRunDecider.decide(waiting.reduce(agentRunDecider.evolve, null), withClaim(1), new Date(at));
    expect(first.map((event) => event.type)).toEqual(['AgentRunChildRunEnded']);
    // The last: the run goes on, claimed by the executor that told it, in the same commit.
    const last = agentRunDecider.decide(
      [...waiting, ...first].reduce(agentRunDecider.evolve, null),
      withClaim(2),
      new Date(at),
    );
    expect(last.map((event) => event.type)).toEqual(['AgentRunChildRunEnded', 'AgentRunStarted']);
    expect(last[1].data).toEqual({
      runId: 'agentrun_p',
      executorId: 'x2',
      warnings: [],
      agentVersion: 3,
      startedAt: at,
    });
    const running = [...waiting, ...first, ...last].reduce(agentRunDecider.evolve, null)!;
    expect(running).toMatchObject({ status: 'running', executorId: 'x2' });
    expect(running.toolCalls.map((call) => call.output)).toEqual(['answer 1', 'answer 2']);
  });

  it('waits for its approvals and its children alike: the last of them resumes it', () => {
    const approvals = [{ toolCallId: 'call_t', tool: 'current_time', args: {} }];
    const both = agentRunDecider.decide(
      [queued, started, ...calls].reduce(agentRunDecider.evolve, null),
      { type: 'Wait', executorId: 'x1', approvals, children: [child(1)], usage, attempts: 1 },
      new Date(at),
    );
    expect(both.map((event) => event.type)).toEqual(['AgentRunChildRunsStarted', 'AgentRunApprovalRequested']);
    const history = [queued, started, ...calls, ...both];
    const decided = agentRunDecider.decide(
      history.reduce(agentRunDecider.evolve, null),
      { type: 'DecideApprovals', decisions: [{ toolCallId: 'call_t', decision: 'approve' }] },
      new Date(at),
    );
    expect(decided[0].data).toMatchObject({ resumed: false });
    const ended = agentRunDecider.decide(
      [...history, ...decided].reduce(agentRunDecider.evolve, null),
      endChild(1, { output: 'one' }),
      new Date(at),
    );
    expect(ended[0].data).toMatchObject({ resumed: true });
  });

  it('cancelled while waiting, names the children still open (they are cancelled with it)', () => {
    const cancelled = agentRunDecider.decide(
      waiting.reduce(agentRunDecider.evolve, null),
      { type: 'CancelAgentRun' },
      new Date(at),
    );
    expect(cancelled).toEqual([
      expect.objectContaining({
        type: 'AgentRunCancelled',
        data: expect.objectContaining({ openChildren: ['agentrun_c1', 'agentrun_c2'] }),
      }),
    ]);
    // A child ending after its parent changes nothing on the parent.
    given(agentRunDecider, [...waiting, ...cancelled])
      .when(endChild(1, { output: 'late' }))
      .then([]);
  });

  it('is not failed by the approval timeout while it waits only for children', () => {
    given(agentRunDecider, waiting)
      .when({ type: 'ExpireApprovals', before: '2027-01-01T00:00:00.000Z', timeoutMs: 1 })
      .then([]);
  });

  it('queues a child once: queueing it again (after a restart, or on a second instance) is a no-op', () => {
    const command = {
      type: 'QueueAgentRun',
      id: 'agentrun_c1',
      agentId: 'agent_1',
      model: 'openai-compatible/m',
      task: 'Task 1',
      context: {},
      parentRunId: 'agentrun_p',
      parentToolCallId: 'call_1',
      depth: 1,
    } as const;
    const childQueued = agentRunDecider.decide(null, command, new Date(at));
    expect(childQueued[0].data).toMatchObject({ parentRunId: 'agentrun_p', depth: 1 });
    given(agentRunDecider, childQueued).when(command).then([]);
    const ended = agentRunDecider.decide(
      [...childQueued].reduce(agentRunDecider.evolve, null),
      { type: 'CancelAgentRun' },
      new Date(at),
    );
    // Its ending names its parent and the call, so the parent can be told without a look-up.
    expect(ended[0].data).toMatchObject({ parentRunId: 'agentrun_p', parentToolCallId: 'call_1' });
  });
});
