import { RunError } from '../../domain/run';
import { stepIndexOf } from '../../shared/step-graph';
import { MAX_TASK_LENGTH, missingPaths, renderStepTask, valueAt } from '../step-task';
import { NewRunId, StepOutcome } from './workflow-run.commands';
import { WorkflowMapItemEnded, WorkflowRunEvent } from './workflow-run.events';
import { MapItem, WorkflowRunAggregate, WorkflowRunStep } from './workflow-run.state';
import { evolveWorkflowRun } from './evolve';
import { templateScope } from './waiting-steps';

/** The most items a map step runs over when the run recorded no limit of its own (WORKFLOW_MAX_MAP_ITEMS). */
export const DEFAULT_MAX_MAP_ITEMS = 1000;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The list a map step runs over, found where its `over` points in the run: an array (a step's output text that is a
 * JSON array counts too), at most the run's limit of items; otherwise the error the step fails with.
 */
export function mapListOf(run: WorkflowRunAggregate, step: WorkflowRunStep): unknown[] | RunError {
  const over = step.map!.over;
  const [head, ...rest] = over.split('.');
  let value: unknown;
  if (head === 'input') value = valueAt(run.input, rest);
  else {
    const from = run.steps[stepIndexOf(run.steps, rest[0]) ?? -1];
    const path = rest.slice(2);
    value = from?.outputObject !== undefined ? valueAt(from.outputObject, path) : undefined;
    if (value === undefined && !path.length && from?.output) value = jsonArray(from.output);
  }
  if (!Array.isArray(value)) {
    const found = value === undefined ? 'nothing' : value === null ? 'null' : `a ${typeof value}`;
    return { code: 'map_not_a_list', message: `Step "${step.id}": map.over (${over}) gave ${found}, not a list` };
  }
  const limit = run.maxMapItems ?? DEFAULT_MAX_MAP_ITEMS;
  if (value.length > limit) {
    const message = `Step "${step.id}": map.over (${over}) gave ${count(value.length)} items, more than the limit of ${count(limit)} (WORKFLOW_MAX_MAP_ITEMS)`;
    return { code: 'map_too_many_items', message };
  }
  return value;
}

/** A map step begins: its items are counted, the first of them start, and an empty list ends it at once. */
export function startMap(
  run: WorkflowRunAggregate,
  index: number,
  newRunId: NewRunId,
  at: string,
): WorkflowRunEvent[] | RunError {
  const step = run.steps[index];
  const list = mapListOf(run, step);
  if (!Array.isArray(list)) return list;
  const concurrency = step.map!.concurrency ?? 1;
  const started: WorkflowRunEvent = {
    type: 'WorkflowMapStarted',
    data: { runId: run.id, index, count: list.length, concurrency, startedAt: at },
  };
  return [started, ...fillMap(evolveWorkflowRun(run, started)!, index, list, newRunId, at)];
}

/**
 * An item's agent run ended: the item ends with it, and then the next items start, or the step ends (its outputs
 * in order once every item has; failed as soon as an item fails under `onItemError: fail`). A repeat changes nothing.
 */
export function endMapItem(
  run: WorkflowRunAggregate,
  index: number,
  agentRunId: string,
  outcome: StepOutcome,
  newRunId: NewRunId,
  at: string,
): WorkflowRunEvent[] {
  const item = run.steps[index].items?.find((i) => i.agentRunId === agentRunId && i.status === 'running');
  if (!item) return [];
  const ended = itemEnded(run.id, index, item.index, outcome, at);
  const after = evolveWorkflowRun(run, ended)!;
  const stopped = stopsTheStep(after, index, ended, at);
  if (stopped) return [ended, ...stopped];
  // The list is found again: the steps it comes from ended before this one began, so it is the same list.
  return [ended, ...fillMap(after, index, mapListOf(after, after.steps[index]) as unknown[], newRunId, at)];
}

/** The task of a step's agent run: its own attempt's, or one of its items'; undefined when it is neither. */
export function taskOfAgentRun(step: WorkflowRunStep, agentRunId: string): string | undefined {
  if (step.items) return step.items.find((item) => item.agentRunId === agentRunId)?.task ?? undefined;
  return step.agentRunId === agentRunId ? (step.task ?? undefined) : undefined;
}

/** Starts pending items while fewer than `concurrency` run, then ends the step once every item has ended. */
function fillMap(
  run: WorkflowRunAggregate,
  index: number,
  list: unknown[],
  newRunId: NewRunId,
  at: string,
): WorkflowRunEvent[] {
  const out: WorkflowRunEvent[] = [];
  let current = run;
  const apply = (event: WorkflowRunEvent) => {
    out.push(event);
    current = evolveWorkflowRun(current, event)!;
  };
  const step = run.steps[index];
  const concurrency = step.map!.concurrency ?? 1;
  let running = step.items!.filter((item) => item.status === 'running').length;
  for (let next = step.items!.findIndex((item) => item.status === 'pending'); next >= 0 && next < list.length; next++) {
    if (running >= concurrency) break;
    const scope = { ...templateScope(current), locals: { item: list[next], index: next } };
    const task = renderStepTask(step.action!, scope);
    if (task === undefined) {
      const message = `Step "${step.id}", item ${next}: its task would be longer than ${count(MAX_TASK_LENGTH)} characters`;
      const ended = itemEnded(run.id, index, next, { error: { code: 'task_too_long', message } }, at);
      apply(ended);
      const stopped = stopsTheStep(current, index, ended, at);
      if (stopped) return [...out, ...stopped];
      continue;
    }
    const missing = missingPaths(step.action!, scope);
    apply({
      type: 'WorkflowMapItemStarted',
      data: {
        runId: run.id,
        index,
        item: next,
        task,
        ...(missing.length > 0 && { missing }),
        agentRunId: newRunId(),
        startedAt: at,
      },
    });
    running++;
  }
  const items = current.steps[index].items!;
  if (items.every((item) => item.status !== 'pending' && item.status !== 'running')) {
    const outputs = items.map(outputOf);
    const data = { runId: run.id, index, status: 'succeeded' as const, output: JSON.stringify(outputs), endedAt: at };
    apply({ type: 'WorkflowStepEnded', data: { ...data, outputObject: outputs } });
  }
  return out;
}

/** An item that failed or was cancelled under `onItemError: fail` ends the step and the run the same way. */
function stopsTheStep(
  run: WorkflowRunAggregate,
  index: number,
  ended: WorkflowMapItemEnded,
  at: string,
): WorkflowRunEvent[] | undefined {
  const step = run.steps[index];
  const { status, item, error } = ended.data;
  if (status === 'succeeded' || step.onItemError === 'skip') return undefined;
  const runId = run.id;
  if (status === 'cancelled') {
    return [
      { type: 'WorkflowStepEnded', data: { runId, index, status: 'cancelled', endedAt: at } },
      { type: 'WorkflowRunCancelled', data: { runId, endedAt: at } },
    ];
  }
  const failure = {
    code: 'map_item_failed',
    message: `Step "${step.id}", item ${item} (agent "${step.agent}") failed: ${error!.message}`,
  };
  return [
    { type: 'WorkflowStepEnded', data: { runId, index, status: 'failed', error: failure, endedAt: at } },
    { type: 'WorkflowRunFailed', data: { runId, error: failure, endedAt: at } },
  ];
}

function itemEnded(runId: string, index: number, item: number, outcome: StepOutcome, at: string): WorkflowMapItemEnded {
  const base = { runId, index, item, endedAt: at };
  if ('output' in outcome) {
    const answer = {
      output: outcome.output,
      ...(outcome.outputObject !== undefined && { outputObject: outcome.outputObject }),
    };
    return { type: 'WorkflowMapItemEnded', data: { ...base, status: 'succeeded', ...answer } };
  }
  if ('cancelled' in outcome) return { type: 'WorkflowMapItemEnded', data: { ...base, status: 'cancelled' } };
  return { type: 'WorkflowMapItemEnded', data: { ...base, status: 'failed', error: outcome.error } };
}

/** An item's place in the step's output: its structured answer or its text; null for one that failed (skipped). */
const outputOf = (item: MapItem): unknown =>
  item.status !== 'succeeded' ? null : item.outputObject !== undefined ? item.outputObject : item.output;

function jsonArray(text: string): unknown[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
