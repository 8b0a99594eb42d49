import { given } from '../../../test/support/decider-specification';
import { WorkflowRunEvent, WorkflowRunQueued, WorkflowRunStarted } from './workflow-run.events';
import { workflowRunDecider } from './workflow-run';

const at = '2026-01-01T00:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(at) + ms);
const queued: WorkflowRunQueued = {
  type: 'WorkflowRunQueued',
  data: {
    id: 'wfrun_1',
    workflowId: 'wf_1',
    input: { order: 'o-1', at: '2026-01-02T00:00:00Z' },
    trigger: { type: 'manual' },
    createdAt: at,
  },
};
const started = (steps: WorkflowRunStarted['data']['steps']): WorkflowRunStarted => ({
  type: 'WorkflowRunStarted',
  data: { runId: 'wfrun_1', workflowName: 'w', workflowVersion: 1, steps, startedAt: at },
});
const newRunId = () => 'agentrun_next';
const start = { type: 'StartWorkflowRun' as const, workflowName: 'w', workflowVersion: 1, newRunId };

describe('workflow run decider: waits and sleeps', () => {
  const waitSteps = [{ id: 'hold', wait: { signal: 'paid', key: '{{input.order}}', timeoutMs: 5000 } }];
  const awaited: WorkflowRunEvent = {
    type: 'WorkflowSignalAwaited',
    data: {
      runId: 'wfrun_1',
      index: 0,
      stepId: 'hold',
      signal: 'paid',
      key: 'o-1',
      timeoutAt: later(5000).toISOString(),
      awaitedAt: at,
    },
  };
  const deliver = (key: string | null) => ({
    type: 'DeliverSignal' as const,
    index: 0,
    signalId: 'signal_1',
    signal: 'paid',
    key,
    data: { amount: 3 },
    newRunId,
  });

  it('waits for its signal with its key filled in, and takes the signal once', () => {
    given(workflowRunDecider, [queued])
      .when({ ...start, steps: waitSteps }, new Date(at))
      .then([{ ...started(waitSteps) }, awaited]);
    given(workflowRunDecider, [queued, started(waitSteps), awaited])
      .when(deliver('o-2'))
      .then([]);
    const received: WorkflowRunEvent[] = [
      { type: 'WorkflowSignalReceived', data: { runId: 'wfrun_1', index: 0, signalId: 'signal_1', receivedAt: at } },
      {
        type: 'WorkflowStepEnded',
        data: {
          runId: 'wfrun_1',
          index: 0,
          status: 'succeeded',
          output: '{"amount":3}',
          outputObject: { amount: 3 },
          endedAt: at,
        },
      },
    ];
    const ended = { type: 'WorkflowRunSucceeded', data: { runId: 'wfrun_1', output: '{"amount":3}', endedAt: at } };
    given(workflowRunDecider, [queued, started(waitSteps), awaited])
      .when(deliver('o-1'), new Date(at))
      .then([...received, ended as WorkflowRunEvent]);
    given(workflowRunDecider, [queued, started(waitSteps), awaited, ...received])
      .when(deliver('o-1'))
      .then([]);
  });

  it('times out at its time, not before', () => {
    const history = [queued, started(waitSteps), awaited];
    given(workflowRunDecider, history).when({ type: 'ExpireWorkflowWait', index: 0 }, later(4999)).then([]);
    const state = history.reduce(workflowRunDecider.evolve, null);
    const events = workflowRunDecider.decide(state, { type: 'ExpireWorkflowWait', index: 0 }, later(5000));
    expect(events.map((event) => event.type)).toEqual(['WorkflowStepEnded', 'WorkflowRunFailed']);
    expect(events[1].data).toMatchObject({ error: { code: 'signal_timeout' } });
  });

  it('waits again after a time-out while its retry has attempts left, then fails with signal_timeout', () => {
    const retrying = [{ ...waitSteps[0], retry: { attempts: 2, backoffMs: 1000 } }];
    const history = [queued, started(retrying), awaited];
    const again: WorkflowRunEvent = {
      type: 'WorkflowSignalAwaited',
      data: {
        ...awaited.data,
        timeoutAt: later(10_000).toISOString(),
        attempt: 2,
        awaitedAt: later(5000).toISOString(),
      },
    };
    given(workflowRunDecider, history).when({ type: 'ExpireWorkflowWait', index: 0 }, later(5000)).then([again]);
    given(workflowRunDecider, [...history, again]).thenState(
      expect.objectContaining({
        status: 'waiting',
        steps: [
          expect.objectContaining({
            status: 'waiting',
            startedAt: at,
            awaiting: expect.objectContaining({ attempt: 2 }),
          }),
        ],
      }),
    );
    // Its second wait still takes a signal.
    given(workflowRunDecider, [...history, again])
      .when(deliver('o-1'), later(6000))
      .then([expect.objectContaining({ type: 'WorkflowSignalReceived' }), expect.anything(), expect.anything()]);
    const state = [...history, again].reduce(workflowRunDecider.evolve, null);
    const events = workflowRunDecider.decide(state, { type: 'ExpireWorkflowWait', index: 0 }, later(10_000));
    expect(events.map((event) => event.type)).toEqual(['WorkflowStepEnded', 'WorkflowRunFailed']);
  });

  it('sleeps until its time and wakes then, with the time as its output', () => {
    const sleepSteps = [{ id: 'nap', sleep: { until: '{{input.at}}' } }];
    const sleeping: WorkflowRunEvent = {
      type: 'WorkflowStepSleeping',
      data: { runId: 'wfrun_1', index: 0, until: '2026-01-02T00:00:00.000Z', sleptAt: at },
    };
    given(workflowRunDecider, [queued])
      .when({ ...start, steps: sleepSteps }, new Date(at))
      .then([started(sleepSteps), sleeping]);
    const history = [queued, started(sleepSteps), sleeping];
    given(workflowRunDecider, history).when({ type: 'WakeWorkflowStep', index: 0, newRunId }, later(1000)).then([]);
    const woke = workflowRunDecider.decide(
      history.reduce(workflowRunDecider.evolve, null),
      { type: 'WakeWorkflowStep', index: 0, newRunId },
      new Date('2026-01-02T00:00:00.000Z'),
    );
    expect(woke[0].data).toMatchObject({ status: 'succeeded', output: '2026-01-02T00:00:00.000Z' });
    expect(woke[1].type).toBe('WorkflowRunSucceeded');
  });
});
