import { RunError, isEnded } from '../../domain/run';
import { CONDITION_BUDGET_TEXT } from '../condition-budget';
import { ConditionScope, conditionVerdict } from '../step-condition';
import { stepIndexOf } from '../../shared/step-graph';
import { MAX_TASK_LENGTH, missingPaths, renderStepTask } from '../step-task';
import { NewRunId } from './workflow-run.commands';
import {
  WorkflowApprovalRequested,
  WorkflowChildRunStarted,
  WorkflowRunEvent,
  WorkflowSignalAwaited,
  WorkflowStepSleeping,
  WorkflowStepStarted,
} from './workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunStep } from './workflow-run.state';
import { evolveWorkflowRun } from './evolve';
import { startSleep, startWait, templateScope } from './waiting-steps';
import { startMap } from './map-steps';
import { FIRST_ITERATION } from './repeat-steps';
import { startChild } from './child-steps';

/** Formatted when the module loads, as CONDITION_BUDGET_TEXT is, rather than while a run advances. */
const TASK_LIMIT_TEXT = MAX_TASK_LENGTH.toLocaleString('en-US');

const isDone = (step: WorkflowRunStep) => step.status === 'succeeded' || step.status === 'skipped';

/** What a step's action and condition read: the input, and the ended steps by id and by position. */
function scopeOf(run: WorkflowRunAggregate): ConditionScope {
  const steps: ConditionScope['steps'] = {};
  for (const step of run.steps) {
    if (step.status !== 'succeeded') continue;
    const answer = { output: step.output, ...(step.outputObject !== undefined && { outputObject: step.outputObject }) };
    steps[String(step.index)] = answer;
    steps[step.id] = answer;
  }
  return { input: run.input, steps };
}

/**
 * After `events`, starts every pending step whose needs have all ended (in order of position), skipping those
 * whose condition is false or whose needs were all skipped, until nothing more can start; a run with nothing
 * left to run succeeds.
 */
export function advance(
  state: WorkflowRunAggregate,
  events: WorkflowRunEvent[],
  newRunId: NewRunId,
  at: string,
): WorkflowRunEvent[] {
  let run = events.reduce((current, event) => evolveWorkflowRun(current, event)!, state);
  const out = [...events];
  const apply = (event: WorkflowRunEvent) => {
    out.push(event);
    run = evolveWorkflowRun(run, event)!;
  };
  for (let moved = true; moved;) {
    moved = false;
    for (const step of run.steps) {
      if (step.status !== 'pending') continue;
      const needs = step.needs.map((id) => run.steps[stepIndexOf(run.steps, id)!]);
      if (!needs.every(isDone)) continue;
      moved = true;
      const index = step.index;
      const needsSkipped = needs.length > 0 && needs.every((need) => need.status === 'skipped');
      const verdict = needsSkipped || step.when === undefined || conditionVerdict(step.when, scopeOf(run));
      if (needsSkipped) {
        apply({ type: 'WorkflowStepSkipped', data: { runId: run.id, index, reason: 'needs_skipped', skippedAt: at } });
      } else if (verdict === 'over_budget') {
        const message = `The condition of step "${step.id}" took more than its budget of ${CONDITION_BUDGET_TEXT}`;
        return [...out, ...stepFailed(run.id, index, { code: 'condition_budget_exceeded', message }, at)];
      } else if (!verdict) {
        apply({
          type: 'WorkflowStepSkipped',
          data: { runId: run.id, index, reason: 'condition_false', skippedAt: at },
        });
      } else {
        const started = startStep(run, index, newRunId, at);
        if ('code' in started) return [...out, ...stepFailed(run.id, index, started, at)];
        for (const event of Array.isArray(started) ? started : [started]) apply(event);
        // A map step's first item can end the run (a task too long, under `onItemError: fail`).
        if (isEnded(run.status)) return out;
      }
    }
  }
  if (run.steps.every(isDone)) {
    const ran = run.steps.filter((step) => step.status === 'succeeded');
    const named = run.outputStep === undefined ? undefined : run.steps[stepIndexOf(run.steps, run.outputStep) ?? -1];
    const output = named ? named.output : ran.length ? ran[ran.length - 1].output : null;
    out.push({ type: 'WorkflowRunSucceeded', data: { runId: run.id, output, endedAt: at } });
  }
  return out;
}

function startStep(
  run: WorkflowRunAggregate,
  index: number,
  newRunId: NewRunId,
  at: string,
):
  | WorkflowStepStarted
  | WorkflowApprovalRequested
  | WorkflowSignalAwaited
  | WorkflowStepSleeping
  | WorkflowChildRunStarted
  | WorkflowRunEvent[]
  | RunError {
  const step = run.steps[index];
  if (step.approval !== undefined) {
    const { approval, timeoutMs } = step;
    const data = { runId: run.id, index, approval, ...(timeoutMs !== undefined && { timeoutMs }), requestedAt: at };
    return { type: 'WorkflowApprovalRequested', data };
  }
  if (step.wait) return startWait(run, step, at);
  if (step.sleep) return startSleep(run, step, at);
  if (step.map) return startMap(run, index, newRunId, at);
  if (step.workflow) return startChild(run, step, newRunId, at);
  const scope = step.repeat ? { ...templateScope(run), locals: FIRST_ITERATION } : templateScope(run);
  const task = renderStepTask(step.action!, scope);
  if (task === undefined) {
    const message = `Step "${step.id}": its task would be longer than ${TASK_LIMIT_TEXT} characters`;
    return { code: 'task_too_long', message };
  }
  // The paths that led nowhere are recorded with the task, so that a typo shows on the step, not only as a gap.
  const missing = missingPaths(step.action!, scope);
  return {
    type: 'WorkflowStepStarted',
    data: {
      runId: run.id,
      index,
      agent: step.agent!,
      task,
      ...(missing.length > 0 && { missing }),
      agentRunId: newRunId(),
      startedAt: at,
    },
  };
}

/** A step fails before it runs (its condition or its task), and the run with it. */
function stepFailed(runId: string, index: number, error: RunError, at: string): WorkflowRunEvent[] {
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error, endedAt: at } },
  ];
}
