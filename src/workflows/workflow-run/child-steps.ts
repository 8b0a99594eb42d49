import { RunError } from '../../domain/run';
import { MAX_TASK_LENGTH, renderStepTask, wholeValue } from '../step-task';
import { NewRunId } from './workflow-run.commands';
import { WorkflowChildRunStarted, WorkflowRunEvent } from './workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunState, WorkflowRunStep } from './workflow-run.state';
import { templateScope } from './waiting-steps';

/** How deep child runs nest when the run recorded no limit of its own (WORKFLOW_MAX_DEPTH). */
export const DEFAULT_MAX_DEPTH = 4;

/**
 * A workflow step begins: its child run's id is chosen and its input filled in (each string a template over the
 * input and the earlier steps; one that is a single placeholder gives the value itself, so a list stays a list). A child deeper than the run's limit fails the step instead.
 */
export function startChild(
  run: WorkflowRunAggregate,
  step: WorkflowRunStep,
  newRunId: NewRunId,
  at: string,
): WorkflowChildRunStarted | RunError {
  const depth = (run.parent?.depth ?? 0) + 1;
  const limit = run.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (depth > limit) {
    const message = `Step "${step.id}": running workflow "${step.workflow}" would nest runs ${depth} deep, more than ${limit} (WORKFLOW_MAX_DEPTH)`;
    return { code: 'workflow_depth_exceeded', message };
  }
  const scope = templateScope(run);
  let tooLong = false;
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = wholeValue(value, scope);
      if (whole) return whole.value;
      const text = renderStepTask(value, scope);
      if (text === undefined) tooLong = true;
      return text ?? '';
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item)]));
  };
  const input = fill(step.input ?? {}) as Record<string, unknown>;
  if (tooLong || JSON.stringify(input).length > MAX_TASK_LENGTH) {
    const message = `Step "${step.id}": the input for workflow "${step.workflow}" would be longer than ${MAX_TASK_LENGTH.toLocaleString('en-US')} characters`;
    return { code: 'task_too_long', message };
  }
  const data = { runId: run.id, index: step.index, workflow: step.workflow!, input, startedAt: at };
  return { type: 'WorkflowChildRunStarted', data: { ...data, childRunId: newRunId('wfrun') } };
}

/** A child run's endings name the run and step that started it, so that its parent's manager finds the step. */
export function withParent(state: WorkflowRunState, events: WorkflowRunEvent[]): WorkflowRunEvent[] {
  const parent = state?.parent;
  if (!parent) return events;
  const link = { runId: parent.runId, index: parent.index };
  return events.map((event) =>
    event.type === 'WorkflowRunSucceeded' || event.type === 'WorkflowRunFailed' || event.type === 'WorkflowRunCancelled'
      ? ({ ...event, data: { ...event.data, parent: link } } as WorkflowRunEvent)
      : event,
  );
}
