import { given } from '../../../test/support/decider-specification';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRunEvent, WorkflowRunQueued } from './workflow-run.events';
import { workflowRunDecider } from './workflow-run';

const at = '2026-01-01T00:00:05.000Z';
const now = new Date(at);
const runId = 'wfrun_1';
const queuedWith = (input: Record<string, unknown>): WorkflowRunQueued => ({
  type: 'WorkflowRunQueued',
  data: { id: runId, workflowId: 'wf_1', input, trigger: { type: 'manual' }, createdAt: at },
});
const ids = () => {
  let n = 0;
  return () => `agentrun_${++n}`;
};
const start = (steps: WorkflowStep[]) =>
  ({ type: 'StartWorkflowRun', workflowName: 'w', workflowVersion: 1, steps, newRunId: ids() }) as const;
const startedWith = (steps: WorkflowStep[]): WorkflowRunEvent => ({
  type: 'WorkflowRunStarted',
  data: { runId, workflowName: 'w', workflowVersion: 1, steps, startedAt: at },
});
const failed = (index: number, code: string, message: RegExp): WorkflowRunEvent[] => {
  const error = { code, message: expect.stringMatching(message) as unknown as string };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
};
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('workflow run decider, limits on what a step may cost', () => {
  it('fails a step whose condition uses up its budget, rather than skipping it', () => {
    const when = { some: [{ var: 'input.items' }, { in: [{ var: '' }, range(990)] }] };
    const steps: WorkflowStep[] = [{ agent: 'a', action: 'x', when }];
    given(workflowRunDecider, [queuedWith({ items: range(20_000).map((i) => -i - 1) })])
      .when(start(steps), now)
      .then([startedWith(steps), ...failed(0, 'condition_budget_exceeded', /budget of 50,000 evaluation steps/)]);
  });

  it('fails a step whose task would be longer than 100,000 characters once filled in', () => {
    const steps: WorkflowStep[] = [{ agent: 'a', action: 'x {{input}}' }];
    given(workflowRunDecider, [queuedWith({ text: 'y'.repeat(100_000) })])
      .when(start(steps), now)
      .then([startedWith(steps), ...failed(0, 'task_too_long', /longer than 100,000 characters/)]);
  });

  it('starts a step whose task is within the limit', () => {
    const steps: WorkflowStep[] = [{ agent: 'a', action: '{{input.text}}' }];
    const task = 'y'.repeat(100_000);
    given(workflowRunDecider, [queuedWith({ text: task })])
      .when(start(steps), now)
      .then([
        startedWith(steps),
        {
          type: 'WorkflowStepStarted',
          data: { runId, index: 0, agent: 'a', task, agentRunId: 'agentrun_1', startedAt: at },
        },
      ]);
  });
});
