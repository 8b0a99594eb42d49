import { given } from '../../../test/support/decider-specification';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRunEvent, WorkflowRunQueued } from './workflow-run.events';
import { retryDelayMs } from './step-retry';
import { workflowRunDecider } from './workflow-run';

const at = '2026-01-01T00:00:05.000Z';
const now = new Date(at);
const runId = 'wfrun_1';
const queued: WorkflowRunQueued = {
  type: 'WorkflowRunQueued',
  data: { id: runId, workflowId: 'wf_1', input: { kind: 'memo' }, trigger: { type: 'manual' }, createdAt: at },
};
const ids = () => {
  let n = 0;
  return () => `agentrun_${++n}`;
};
const startedWith = (steps: WorkflowStep[]): WorkflowRunEvent => ({
  type: 'WorkflowRunStarted',
  data: { runId, workflowName: 'graph', workflowVersion: 1, steps, startedAt: at },
});
const stepStarted = (index: number, task: string, agentRunId: string): WorkflowRunEvent => ({
  type: 'WorkflowStepStarted',
  data: { runId, index, agent: 'a', task, agentRunId, startedAt: at },
});
const succeeded = (index: number, output: string): WorkflowRunEvent => ({
  type: 'WorkflowStepEnded',
  data: { runId, index, status: 'succeeded', output, endedAt: at },
});

describe('workflow run decider, steps as a graph', () => {
  const branches: WorkflowStep[] = [
    { id: 'l', agent: 'a', action: 'left' },
    { id: 'r', agent: 'a', action: 'right', needs: [] },
    { id: 'j', agent: 'a', action: 'join {{steps.l.output}} {{steps.1.output}}', needs: ['l', 'r'] },
  ];

  it('starts every step whose needs are met at once, and a join once all its needs have ended', () => {
    given(workflowRunDecider, [queued])
      .when(
        { type: 'StartWorkflowRun', workflowName: 'graph', workflowVersion: 1, steps: branches, newRunId: ids() },
        now,
      )
      .then([startedWith(branches), stepStarted(0, 'left', 'agentrun_1'), stepStarted(1, 'right', 'agentrun_2')]);
    const running = [queued, startedWith(branches), stepStarted(0, 'left', 'a1'), stepStarted(1, 'right', 'a2')];
    const outcome = { output: 'L' };
    given(workflowRunDecider, running)
      .when({ type: 'EndWorkflowStep', index: 0, agentRunId: 'a1', outcome, newRunId: ids() }, now)
      .then([succeeded(0, 'L')]);
    given(workflowRunDecider, [...running, succeeded(0, 'L')])
      .when({ type: 'EndWorkflowStep', index: 1, agentRunId: 'a2', outcome: { output: 'R' }, newRunId: ids() }, now)
      .then([succeeded(1, 'R'), stepStarted(2, 'join L R', 'agentrun_1')]);
  });

  it('ends several steps in one command, as if one after the other', () => {
    const running = [queued, startedWith(branches), stepStarted(0, 'left', 'a1'), stepStarted(1, 'right', 'a2')];
    const ends = [
      { index: 0, agentRunId: 'a1', outcome: { output: 'L' } },
      { index: 1, agentRunId: 'a2', outcome: { output: 'R' } },
    ];
    given(workflowRunDecider, running)
      .when({ type: 'EndWorkflowSteps', ends, newRunId: ids() }, now)
      .then([succeeded(0, 'L'), succeeded(1, 'R'), stepStarted(2, 'join L R', 'agentrun_1')]);
  });

  it('skips a step whose condition is false and the steps that need only it; the output is the last that ran', () => {
    const steps: WorkflowStep[] = [
      { id: 'news', agent: 'a', action: 'news', when: { '==': [{ var: 'input.kind' }, 'news'] } },
      { id: 'publish', agent: 'a', action: 'publish' },
      { id: 'memo', agent: 'a', action: 'memo', needs: [], when: true },
    ];
    const skipped = (index: number, reason: 'condition_false' | 'needs_skipped'): WorkflowRunEvent => ({
      type: 'WorkflowStepSkipped',
      data: { runId, index, reason, skippedAt: at },
    });
    given(workflowRunDecider, [queued])
      .when({ type: 'StartWorkflowRun', workflowName: 'graph', workflowVersion: 1, steps, newRunId: ids() }, now)
      .then([
        startedWith(steps),
        skipped(0, 'condition_false'),
        skipped(1, 'needs_skipped'),
        stepStarted(2, 'memo', 'agentrun_1'),
      ]);
    given(workflowRunDecider, [
      queued,
      startedWith(steps),
      skipped(0, 'condition_false'),
      skipped(1, 'needs_skipped'),
      stepStarted(2, 'memo', 'a1'),
    ])
      .when({ type: 'EndWorkflowStep', index: 2, agentRunId: 'a1', outcome: { output: 'M' }, newRunId: ids() }, now)
      .then([succeeded(2, 'M'), { type: 'WorkflowRunSucceeded', data: { runId, output: 'M', endedAt: at } }]);
  });

  describe('retries', () => {
    const steps: WorkflowStep[] = [
      { agent: 'a', action: 'go', retry: { attempts: 3, backoffMs: 100, maxBackoffMs: 150 } },
    ];
    const running = [queued, startedWith(steps), stepStarted(0, 'go', 'a1')];
    const error = { code: 'provider_error', message: 'busy' };

    it('retries a failed attempt after its backoff, with a new agent run', () => {
      given(workflowRunDecider, running)
        .when({ type: 'EndWorkflowStep', index: 0, agentRunId: 'a1', outcome: { error }, newRunId: () => 'a2' }, now)
        .then([
          {
            type: 'WorkflowStepRetrying',
            data: {
              runId,
              index: 0,
              agentRunId: 'a1',
              error,
              nextAgentRunId: 'a2',
              retryAt: '2026-01-01T00:00:05.100Z',
            },
          },
        ]);
      expect([1, 2, 3].map((n) => retryDelayMs({ attempts: 3, backoffMs: 100, maxBackoffMs: 150 }, n))).toEqual([
        100, 150, 150,
      ]);
    });

    it('does not retry an error no retry can fix', () => {
      const fatal = { code: 'provider_not_configured', message: 'no key' };
      given(workflowRunDecider, running)
        .when({ type: 'EndWorkflowStep', index: 0, agentRunId: 'a1', outcome: { error: fatal }, newRunId: ids() }, now)
        .then([
          { type: 'WorkflowStepEnded', data: { runId, index: 0, status: 'failed', error: fatal, endedAt: at } },
          {
            type: 'WorkflowRunFailed',
            data: { runId, error: { code: 'step_failed', message: 'Step 0 (agent "a") failed: no key' }, endedAt: at },
          },
        ]);
    });
  });

  it('fails a step past its timeoutMs, and not before', () => {
    const steps: WorkflowStep[] = [{ agent: 'a', action: 'go', timeoutMs: 1000 }];
    const running = [queued, startedWith(steps), stepStarted(0, 'go', 'a1')];
    given(workflowRunDecider, running)
      .when({ type: 'ExpireWorkflowStep', index: 0 }, new Date(now.getTime() + 999))
      .then([]);
    const error = { code: 'step_timeout', message: 'Step "0" took longer than 1000 ms' };
    const later = new Date(now.getTime() + 1000);
    given(workflowRunDecider, running)
      .when({ type: 'ExpireWorkflowStep', index: 0 }, later)
      .then([
        { type: 'WorkflowStepEnded', data: { runId, index: 0, status: 'failed', error, endedAt: later.toISOString() } },
        { type: 'WorkflowRunFailed', data: { runId, error, endedAt: later.toISOString() } },
      ]);
  });
});
