import { runOf } from '../../../test/support/workflow-run-driver';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRunEvent } from './workflow-run.events';

const typesOf = (events: WorkflowRunEvent[]) => events.map((event) => event.type);
const tasksOf = (events: WorkflowRunEvent[]) =>
  events.flatMap((event) =>
    event.type === 'WorkflowMapItemStarted' ? [[event.data.agentRunId, event.data.task]] : [],
  );

describe('workflow run decider: map steps', () => {
  const mapStep = (extra: Partial<WorkflowStep> = {}): WorkflowStep => ({
    id: 'each',
    agent: 'writer',
    action: 'Write to {{item.name}} (#{{index}}) about {{input.topic}}',
    map: { over: 'input.people', concurrency: 2 },
    ...extra,
  });
  const people = { topic: 'tea', people: [{ name: 'Ada' }, { name: 'Bo' }, { name: 'Cy' }] };
  const then: WorkflowStep = { id: 'sum', agent: 'writer', action: 'Sum up {{steps.each.output}}' };

  it('runs its agent once per item, at most `concurrency` at once, and gives the outputs in order', () => {
    const run = runOf([mapStep(), then], people);
    const started = run.start();
    expect(typesOf(started)).toEqual([
      'WorkflowRunStarted',
      'WorkflowMapStarted',
      'WorkflowMapItemStarted',
      'WorkflowMapItemStarted',
    ]);
    expect(started[1].data).toMatchObject({ index: 0, count: 3, concurrency: 2 });
    expect(tasksOf(started)).toEqual([
      ['agentrun_1', 'Write to Ada (#0) about tea'],
      ['agentrun_2', 'Write to Bo (#1) about tea'],
    ]);
    // The second item ends first: the third starts in its place; the step waits for the first.
    const second = run.end(0, 'agentrun_2', { output: 'to Bo' });
    expect(typesOf(second)).toEqual(['WorkflowMapItemEnded', 'WorkflowMapItemStarted']);
    expect(tasksOf(second)).toEqual([['agentrun_3', 'Write to Cy (#2) about tea']]);
    expect(run.end(0, 'agentrun_2', { output: 'again' })).toEqual([]);
    expect(typesOf(run.end(0, 'agentrun_3', { output: 'to Cy', outputObject: { to: 'Cy' } }))).toEqual([
      'WorkflowMapItemEnded',
    ]);
    const last = run.end(0, 'agentrun_1', { output: 'to Ada' });
    expect(typesOf(last)).toEqual(['WorkflowMapItemEnded', 'WorkflowStepEnded', 'WorkflowStepStarted']);
    const outputs = ['to Ada', 'to Bo', { to: 'Cy' }];
    expect(last[1].data).toMatchObject({ status: 'succeeded', outputObject: outputs, output: JSON.stringify(outputs) });
    expect(last[2].data).toMatchObject({ index: 1, task: `Sum up ${JSON.stringify(outputs)}` });
    expect(run.state().steps[0].items!.map((item) => [item.status, item.agentRunId])).toEqual([
      ['succeeded', 'agentrun_1'],
      ['succeeded', 'agentrun_2'],
      ['succeeded', 'agentrun_3'],
    ]);
  });

  it('fails the step and the run at the first failed item by default, cancelling the items still running', () => {
    const run = runOf([mapStep({ map: { over: 'input.people', concurrency: 2 } }), then], people);
    run.start();
    const failed = run.end(0, 'agentrun_1', { error: { code: 'model_error', message: 'the model said no' } });
    expect(typesOf(failed)).toEqual(['WorkflowMapItemEnded', 'WorkflowStepEnded', 'WorkflowRunFailed']);
    expect(failed[2].data).toMatchObject({
      error: { code: 'map_item_failed', message: 'Step "each", item 0 (agent "writer") failed: the model said no' },
    });
    expect(run.state().steps[0].items!.map((item) => item.status)).toEqual(['failed', 'cancelled', 'skipped']);
    expect(run.end(0, 'agentrun_2', { output: 'too late' })).toEqual([]);
  });

  it('with onItemError skip, goes on and leaves null in the place of a failed item', () => {
    const run = runOf([mapStep({ onItemError: 'skip', map: { over: 'input.people' } })], people);
    expect(tasksOf(run.start())).toEqual([['agentrun_1', 'Write to Ada (#0) about tea']]);
    run.end(0, 'agentrun_1', { output: 'to Ada' });
    run.end(0, 'agentrun_2', { error: { code: 'model_error', message: 'no' } });
    const last = run.end(0, 'agentrun_3', { output: 'to Cy' });
    expect(typesOf(last)).toEqual(['WorkflowMapItemEnded', 'WorkflowStepEnded', 'WorkflowRunSucceeded']);
    expect(last[1].data).toMatchObject({ outputObject: ['to Ada', null, 'to Cy'] });
  });

  it('fails a list longer than the limit, naming its length, and anything that is not a list', () => {
    const tooLong = runOf([mapStep()], people, 2).start();
    expect(tooLong.at(-1)).toMatchObject({
      type: 'WorkflowRunFailed',
      data: {
        error: {
          code: 'map_too_many_items',
          message:
            'Step "each": map.over (input.people) gave 3 items, more than the limit of 2 (WORKFLOW_MAX_MAP_ITEMS)',
        },
      },
    });
    const notAList = runOf([mapStep()], { people: 'Ada' }).start();
    expect(notAList.at(-1)).toMatchObject({
      data: {
        error: { code: 'map_not_a_list', message: 'Step "each": map.over (input.people) gave a string, not a list' },
      },
    });
  });

  it('ends at once over an empty list, and takes a list from an earlier step, a JSON array text too', () => {
    const empty = runOf([mapStep(), then], { people: [] }).start();
    expect(typesOf(empty)).toEqual([
      'WorkflowRunStarted',
      'WorkflowMapStarted',
      'WorkflowStepEnded',
      'WorkflowStepStarted',
    ]);
    expect(empty[2].data).toMatchObject({ status: 'succeeded', outputObject: [] });

    const steps: WorkflowStep[] = [
      { id: 'list', agent: 'lister', action: 'List names' },
      { id: 'each', agent: 'writer', action: 'Hello {{item}}', map: { over: 'steps.list.output', concurrency: 5 } },
    ];
    const run = runOf(steps, {});
    run.start();
    const listed = run.end(0, 'agentrun_1', { output: '["Ada", "Bo"]' });
    expect(tasksOf(listed)).toEqual([
      ['agentrun_2', 'Hello Ada'],
      ['agentrun_3', 'Hello Bo'],
    ]);
  });
});
