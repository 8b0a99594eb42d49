import { CONDITION_BUDGET_TEXT } from '../condition-budget';
import { conditionVerdict } from '../step-condition';
import { MAX_TASK_LENGTH, StepTaskScope, missingPaths, renderStepTask } from '../step-task';
import { NewRunId } from './workflow-run.commands';
import { WorkflowRunEvent } from './workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunStep } from './workflow-run.state';
import { templateScope } from './waiting-steps';

/** What a repeating step's first iteration reads: no previous answer yet, and iteration 1. */
export const FIRST_ITERATION: NonNullable<StepTaskScope['locals']> = { previous: { output: null }, iteration: 1 };

/**
 * A repeating step's iteration succeeded with `answer`. Undefined when its `until` holds: the step ends with that
 * answer, as any step does. Otherwise the next iteration starts at once, with `{{previous.output}}` and
 * `{{iteration}}` filled in again, unless the step has run `max` times: then it fails with repeat_exhausted.
 */
export function nextIteration(
  run: WorkflowRunAggregate,
  step: WorkflowRunStep,
  answer: { output: string; outputObject?: unknown },
  newRunId: NewRunId,
  at: string,
): WorkflowRunEvent[] | undefined {
  const { until, max } = step.repeat!;
  const iteration = step.attempts?.length ?? 1;
  const verdict = conditionVerdict(until, { ...answer, iteration });
  if (verdict === true) return undefined;
  if (verdict === 'over_budget') {
    const message = `The until rule of step "${step.id}" took more than its budget of ${CONDITION_BUDGET_TEXT}`;
    return failed(run.id, step, { code: 'condition_budget_exceeded', message }, at);
  }
  if (iteration >= max) {
    const message = `Step "${step.id}" ran ${max} times, its repeat.max, and its until rule never held`;
    return failed(run.id, step, { code: 'repeat_exhausted', message }, at);
  }
  const scope = { ...templateScope(run), locals: { previous: answer, iteration: iteration + 1 } };
  const task = renderStepTask(step.action!, scope);
  if (task === undefined) {
    const message = `Step "${step.id}", iteration ${iteration + 1}: its task would be longer than ${MAX_TASK_LENGTH.toLocaleString('en-US')} characters`;
    return failed(run.id, step, { code: 'task_too_long', message }, at);
  }
  const missing = missingPaths(step.action!, scope);
  return [
    {
      type: 'WorkflowStepRepeating',
      data: {
        runId: run.id,
        index: step.index,
        agentRunId: step.agentRunId!,
        output: answer.output,
        iteration: iteration + 1,
        task,
        ...(missing.length > 0 && { missing }),
        nextAgentRunId: newRunId(),
        repeatedAt: at,
      },
    },
  ];
}

function failed(
  runId: string,
  step: WorkflowRunStep,
  error: { code: string; message: string },
  at: string,
): WorkflowRunEvent[] {
  return [
    { type: 'WorkflowStepEnded', data: { runId, index: step.index, status: 'failed', error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}
