import { given } from '../../../test/support/decider-specification';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRunEvent, WorkflowRunQueued } from './workflow-run.events';
import { workflowRunDecider } from './workflow-run';
import { toWorkflowRun } from './workflow-run.view';

const at = '2026-01-01T00:00:05.000Z';
const now = new Date(at);
const runId = 'wfrun_1';
const queued: WorkflowRunQueued = {
  type: 'WorkflowRunQueued',
  data: { id: runId, workflowId: 'wf_1', input: { topic: 'cron' }, trigger: { type: 'manual' }, createdAt: at },
};
const startedWith = (steps: WorkflowStep[]): WorkflowRunEvent => ({
  type: 'WorkflowRunStarted',
  data: { runId, workflowName: 'notes', workflowVersion: 1, steps, startedAt: at },
});
const skipped = (index: number, reason: 'condition_false' | 'needs_skipped'): WorkflowRunEvent => ({
  type: 'WorkflowStepSkipped',
  data: { runId, index, reason, skippedAt: at },
});
const start = (steps: WorkflowStep[]) =>
  ({ type: 'StartWorkflowRun', workflowName: 'notes', workflowVersion: 1, steps, newRunId: () => 'a1' }) as const;
const viewAfter = (events: WorkflowRunEvent[]) =>
  toWorkflowRun(events.reduce(workflowRunDecider.evolve, workflowRunDecider.initialState)!);

describe('workflow run decider: why a step was skipped, and the paths its task could not fill', () => {
  it('shows why each skipped step was skipped, and no reason on a step the ended run never reached', () => {
    const steps: WorkflowStep[] = [
      { id: 'news', agent: 'a', action: 'news', when: false },
      { id: 'publish', agent: 'a', action: 'publish' },
      { id: 'memo', agent: 'a', action: 'memo', needs: [] },
      { id: 'file', agent: 'a', action: 'file', needs: ['memo'] },
    ];
    const memoStarted: WorkflowRunEvent = {
      type: 'WorkflowStepStarted',
      data: { runId, index: 2, agent: 'a', task: 'memo', agentRunId: 'a1', startedAt: at },
    };
    given(workflowRunDecider, [queued])
      .when(start(steps), now)
      .then([startedWith(steps), skipped(0, 'condition_false'), skipped(1, 'needs_skipped'), memoStarted]);

    const cancelled: WorkflowRunEvent = { type: 'WorkflowRunCancelled', data: { runId, endedAt: at } };
    const run = viewAfter([
      queued,
      startedWith(steps),
      skipped(0, 'condition_false'),
      skipped(1, 'needs_skipped'),
      memoStarted,
      cancelled,
    ]);
    expect(run.steps.map((step) => [step.id, step.status, step.skipReason])).toEqual([
      ['news', 'skipped', 'condition_false'],
      ['publish', 'skipped', 'needs_skipped'],
      ['memo', 'cancelled', undefined],
      ['file', 'skipped', undefined],
    ]);
  });

  it('records the placeholders whose path leads nowhere with the task, each once, and shows them on the step', () => {
    const steps: WorkflowStep[] = [{ agent: 'a', action: 'About {{input.topc}} ({{ input.topc }}, {{input.topic}})' }];
    const started: WorkflowRunEvent = {
      type: 'WorkflowStepStarted',
      data: {
        runId,
        index: 0,
        agent: 'a',
        task: 'About  (, cron)',
        missing: ['input.topc'],
        agentRunId: 'a1',
        startedAt: at,
      },
    };
    given(workflowRunDecider, [queued])
      .when(start(steps), now)
      .then([startedWith(steps), started]);
    expect(viewAfter([queued, startedWith(steps), started]).steps[0]).toMatchObject({
      task: 'About  (, cron)',
      missing: ['input.topc'],
    });
  });

  it('records no missing paths when every placeholder leads somewhere, nor on a step recorded before they were', () => {
    const steps: WorkflowStep[] = [{ agent: 'a', action: 'About {{input.topic}}' }];
    const started: WorkflowRunEvent = {
      type: 'WorkflowStepStarted',
      data: { runId, index: 0, agent: 'a', task: 'About cron', agentRunId: 'a1', startedAt: at },
    };
    given(workflowRunDecider, [queued])
      .when(start(steps), now)
      .then([startedWith(steps), started]);
    const old: WorkflowRunEvent = {
      type: 'WorkflowStepStarted',
      data: { runId, index: 0, agent: 'a', task: 'About ', agentRunId: 'a1', startedAt: at },
    };
    const oldSteps: WorkflowStep[] = [{ agent: 'a', action: 'About {{input.topc}}' }];
    expect(viewAfter([queued, startedWith(oldSteps), old]).steps[0]).not.toHaveProperty('missing');
  });
});
