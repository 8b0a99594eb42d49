import { RunError } from '../../domain/run';
import { stepIndexOf } from '../../shared/step-graph';
import { StepTaskScope, renderStepTask } from '../step-task';
import { WorkflowSignalAwaited, WorkflowStepSleeping } from './workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunStep } from './workflow-run.state';

/** The longest key a wait's template may give. */
const KEY_LENGTH = 200;

/** The step's placeholders' scope: the input, and the steps that ended, by id and by position. */
export function templateScope(run: WorkflowRunAggregate): StepTaskScope {
  return {
    input: run.input,
    outputs: run.steps.map((s) => s.output),
    objects: run.steps.map((s) => s.outputObject),
    indexOf: (ref) => stepIndexOf(run.steps, ref),
  };
}

/**
 * A wait step begins: it waits for its signal, with its key filled in (a key longer than 200 characters fails the
 * step), until its time-out if it has one.
 */
export function startWait(
  run: WorkflowRunAggregate,
  step: WorkflowRunStep,
  at: string,
): WorkflowSignalAwaited | RunError {
  const { signal, key: template, timeoutMs } = step.wait!;
  const key = template === undefined ? null : renderStepTask(template, templateScope(run), KEY_LENGTH);
  if (key === undefined) {
    return {
      code: 'signal_key_too_long',
      message: `Step "${step.id}": its key would be longer than ${KEY_LENGTH} characters`,
    };
  }
  const timeoutAt = timeoutMs === undefined ? undefined : new Date(Date.parse(at) + timeoutMs).toISOString();
  const data = {
    runId: run.id,
    index: step.index,
    stepId: step.id,
    signal,
    key,
    ...(timeoutAt && { timeoutAt }),
    awaitedAt: at,
  };
  return { type: 'WorkflowSignalAwaited', data };
}

/** A sleep step begins: it sleeps for its `ms`, or until the time its `until` gives (anything else fails it). */
export function startSleep(
  run: WorkflowRunAggregate,
  step: WorkflowRunStep,
  at: string,
): WorkflowStepSleeping | RunError {
  const sleep = step.sleep!;
  let until: string;
  if ('ms' in sleep) until = new Date(Date.parse(at) + sleep.ms).toISOString();
  else {
    const text = renderStepTask(sleep.until, templateScope(run), 100) ?? '';
    const time = Date.parse(text);
    if (Number.isNaN(time)) {
      const message = `Step "${step.id}": its until gave "${text.slice(0, 100)}", which is not an ISO time`;
      return { code: 'sleep_until_invalid', message };
    }
    until = new Date(time).toISOString();
  }
  return { type: 'WorkflowStepSleeping', data: { runId: run.id, index: step.index, until, sleptAt: at } };
}

/** Whether a signal of this name and key is one the step waits for: a wait with no key takes any key. */
export function awaits(step: WorkflowRunStep | undefined, signal: string, key: string | null): boolean {
  const awaiting = step?.status === 'waiting' ? step.awaiting : undefined;
  return (
    !!awaiting && !awaiting.signalId && awaiting.signal === signal && (awaiting.key === null || awaiting.key === key)
  );
}
