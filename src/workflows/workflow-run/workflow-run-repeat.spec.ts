import { runOf } from '../../../test/support/workflow-run-driver';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRunEvent } from './workflow-run.events';

const typesOf = (events: WorkflowRunEvent[]) => events.map((event) => event.type);

describe('workflow run decider: repeating steps', () => {
  const draft: WorkflowStep = {
    id: 'draft',
    agent: 'writer',
    action: 'Draft {{iteration}} on {{input.topic}}, better than: {{previous.output}}',
    repeat: { until: { '>=': [{ var: 'outputObject.score' }, 8] }, max: 3 },
  };

  it('runs again with the previous answer until its rule holds, each iteration an attempt', () => {
    const run = runOf([draft, { id: 'send', agent: 'writer', action: 'Send {{steps.draft.output}}' }], {
      topic: 'tea',
    });
    const started = run.start();
    expect(started[1]).toMatchObject({
      type: 'WorkflowStepStarted',
      data: { task: 'Draft 1 on tea, better than: ', agentRunId: 'agentrun_1' },
    });
    expect(started[1].data).not.toHaveProperty('missing');
    const again = run.end(0, 'agentrun_1', { output: 'v1', outputObject: { score: 5 } });
    expect(again).toEqual([
      {
        type: 'WorkflowStepRepeating',
        data: {
          runId: 'wfrun_1',
          index: 0,
          agentRunId: 'agentrun_1',
          output: 'v1',
          iteration: 2,
          task: 'Draft 2 on tea, better than: v1',
          nextAgentRunId: 'agentrun_2',
          repeatedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    ]);
    // The first iteration's run ending again changes nothing: the step now waits for the second.
    expect(run.end(0, 'agentrun_1', { output: 'v1', outputObject: { score: 5 } })).toEqual([]);
    const done = run.end(0, 'agentrun_2', { output: 'v2', outputObject: { score: 9 } });
    expect(typesOf(done)).toEqual(['WorkflowStepEnded', 'WorkflowStepStarted']);
    expect(done[0].data).toMatchObject({ status: 'succeeded', output: 'v2', outputObject: { score: 9 } });
    // A step's structured answer is what {{steps.<id>.output}} gives, as for any step.
    expect(done[1].data).toMatchObject({ task: 'Send {"score":9}' });
    expect(run.state().steps[0].attempts).toEqual([
      { runId: 'agentrun_1', status: 'succeeded', error: null, output: 'v1' },
      { runId: 'agentrun_2', status: 'succeeded', error: null, output: 'v2' },
    ]);
  });

  it('fails with repeat_exhausted once it has run max times without its rule holding', () => {
    const run = runOf([draft], { topic: 'tea' });
    run.start();
    run.end(0, 'agentrun_1', { output: 'v1', outputObject: { score: 1 } });
    run.end(0, 'agentrun_2', { output: 'v2', outputObject: { score: 2 } });
    const last = run.end(0, 'agentrun_3', { output: 'v3', outputObject: { score: 3 } });
    expect(typesOf(last)).toEqual(['WorkflowStepEnded', 'WorkflowRunFailed']);
    expect(last[1].data).toMatchObject({
      error: {
        code: 'repeat_exhausted',
        message: 'Step "draft" ran 3 times, its repeat.max, and its until rule never held',
      },
    });
    expect(run.state().steps[0].attempts!.map((attempt) => attempt.status)).toEqual([
      'succeeded',
      'succeeded',
      'failed',
    ]);
  });

  it('reads the iteration in its rule, and a failed iteration fails the step as any attempt does', () => {
    const byCount: WorkflowStep = { ...draft, repeat: { until: { '==': [{ var: 'iteration' }, 2] }, max: 5 } };
    const run = runOf([byCount], { topic: 'tea' });
    run.start();
    expect(typesOf(run.end(0, 'agentrun_1', { output: 'v1' }))).toEqual(['WorkflowStepRepeating']);
    expect(typesOf(run.end(0, 'agentrun_2', { output: 'v2' }))).toEqual(['WorkflowStepEnded', 'WorkflowRunSucceeded']);

    const failing = runOf([draft], { topic: 'tea' });
    failing.start();
    const failed = failing.end(0, 'agentrun_1', { error: { code: 'model_error', message: 'no' } });
    expect(typesOf(failed)).toEqual(['WorkflowStepEnded', 'WorkflowRunFailed']);
  });
});
