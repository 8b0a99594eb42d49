import { ConcurrencyKey, OverlapPolicy, RunSlots } from '../../domain/run-slots';
import { StepCondition } from '../step-condition';

export type WorkflowStatus = 'active' | 'paused' | 'archived';
export const WORKFLOW_STATUSES: WorkflowStatus[] = ['active', 'paused', 'archived'];

export type WorkflowTrigger = { type: 'manual' } | { type: 'schedule'; cron: string; timezone: string };
/** A replay: the run it replays, and the step it runs again from. */
export interface ReplayOf {
  runId: string;
  fromStep: string;
}

/**
 * The run a child run was started by: the run, its step (by position and id), and how deep the child is (1 for a
 * child of a run no workflow started).
 */
export interface ParentRun {
  runId: string;
  index: number;
  step: string;
  depth: number;
}

/** What started a run. */
/** A schedule's run: the tick it stands for; `backfill`: asked for afterwards, for a tick in the past. */
export type RunTrigger = { type: 'manual' } | { type: 'schedule'; scheduledFor: string; backfill?: true };

/**
 * What a step's agent run gets besides its task, the action with its placeholders filled in: nothing by default
 * (the task holds what the action names); `input` the run's input; `steps` the earlier steps' outputs; `all` both,
 * with the workflow and run ids.
 */
export type StepContextOption = 'input' | 'steps' | 'all';

export const STEP_CONTEXT_OPTIONS: readonly StepContextOption[] = ['input', 'steps', 'all'];

/** Where a step stands in the graph (see step-graph.ts); all absent: a chain, as before steps had ids. */
export interface StepPlacement {
  /** Unique in the workflow; default: the step's position ("0", "1", …). */
  id?: string;
  /** The steps it waits for, by id; default: the step before it. */
  needs?: string[];
  /** A JSON Logic rule (step-condition.ts); false: the step is skipped. */
  when?: StepCondition;
}

/** Attempts of an agent step: a failed attempt is retried after `backoffMs`, doubled each time up to `maxBackoffMs`. */
export interface StepRetry {
  attempts: number;
  backoffMs: number;
  maxBackoffMs?: number;
}

/**
 * A map step's list: `over` is a path to an array (`input.<path>`, or `steps.<id>.output` or `.outputObject`
 * followed by a path into the step's structured answer); at most `concurrency` items (default 1) run at once.
 */
export interface MapOver {
  over: string;
  concurrency?: number;
}

/** What a map step does when an item's run fails: fails the step (and the run), or leaves null in its place. */
export type ItemErrorPolicy = 'fail' | 'skip';
export const ITEM_ERROR_POLICIES: readonly ItemErrorPolicy[] = ['fail', 'skip'];

export interface AgentStep extends StepPlacement {
  agent: string;
  action: string;
  /** Absent: the task alone. */
  context?: StepContextOption;
  retry?: StepRetry;
  /** Bounds all of its attempts together. */
  timeoutMs?: number;
  /** A map step: its agent runs once per item of the list, with `{{item}}` and `{{index}}` in its action. */
  map?: MapOver;
  /** A map step: absent means `fail`. */
  onItemError?: ItemErrorPolicy;
  /** A repeating step: runs again until `until` holds or it has run `max` times. */
  repeat?: StepRepeat;
}

/**
 * A step that runs again until its answer is good enough: `until` is a JSON Logic rule over
 * `{output, outputObject, iteration}` (the iteration that just ended, from 1), `max` the most iterations.
 */
export interface StepRepeat {
  until: StepCondition;
  max: number;
}

/** A step that waits for a person: `approval` is the text shown to the approver. */
export interface ApprovalStep extends StepPlacement {
  approval: string;
  timeoutMs?: number;
}

/**
 * A step that waits for the world: for a signal of that name (`POST /v1/signals`) and, when given, that key (a
 * template over the input and the earlier steps, filled in when the wait begins), at most `timeoutMs`.
 */
export interface WaitStep extends StepPlacement {
  wait: { signal: string; key?: string; timeoutMs?: number };
  /** `attempts` waits in all: after a time-out it waits again, at once (its backoff does not apply). */
  retry?: StepRetry;
}

/** A step that sleeps for `ms`, or until the time `until` gives (a template that must give an ISO time). */
export interface SleepStep extends StepPlacement {
  sleep: { ms: number } | { until: string };
}

/**
 * A step that runs another workflow, by name, as a child run and waits for it: the child's output is the step's.
 * `input` is the child's input, its strings templates filled in when the step starts.
 */
export interface WorkflowCallStep extends StepPlacement {
  workflow: string;
  input?: Record<string, unknown>;
  retry?: StepRetry;
  timeoutMs?: number;
}

export type WorkflowStep = AgentStep | ApprovalStep | WaitStep | SleepStep | WorkflowCallStep;

export function isAgentStep(step: WorkflowStep): step is AgentStep {
  return 'agent' in step;
}

export function isApprovalStep(step: WorkflowStep): step is ApprovalStep {
  return 'approval' in step;
}

export function isWaitStep(step: WorkflowStep): step is WaitStep {
  return 'wait' in step;
}

export function isSleepStep(step: WorkflowStep): step is SleepStep {
  return 'sleep' in step;
}

export function isWorkflowCallStep(step: WorkflowStep): step is WorkflowCallStep {
  return 'workflow' in step;
}

/** Every string in a value, with its path (`input.customer.name`): the templates of a workflow step's input. */
function stringsIn(value: unknown, path: string): Array<{ field: string; text: string }> {
  if (typeof value === 'string') return [{ field: path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsIn(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringsIn(item, `${path}.${key}`));
}

/** The fields of a step that are templates filled in when it starts. */
export function templatesOf(step: WorkflowStep): Array<{ field: string; text: string }> {
  if (isAgentStep(step)) return [{ field: 'action', text: step.action }];
  if (isWaitStep(step)) return step.wait.key === undefined ? [] : [{ field: 'wait.key', text: step.wait.key }];
  if (isSleepStep(step) && 'until' in step.sleep) return [{ field: 'sleep.until', text: step.sleep.until }];
  if (isWorkflowCallStep(step)) return step.input === undefined ? [] : stringsIn(step.input, 'input');
  return [];
}

export interface Workflow {
  id: string;
  name: string;
  status: WorkflowStatus;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  /** The step whose output is the run's output; absent: the last step by position among those that ran. */
  outputStep?: string;
  /** A JSON Schema (its root an object) a trigger's `input` must match; absent: any object. */
  inputSchema?: Record<string, unknown>;
  /** What a schedule tick does while a run is still going; absent in workflows recorded before it: `allow`. */
  overlap?: OverlapPolicy;
  /** At most this many runs at once, the others wait in order; absent or null: no limit. */
  maxConcurrentRuns?: number | null;
  /** At most `limit` runs at once per key (a template over the input); absent or null: no limit per key. */
  concurrency?: ConcurrencyKey | null;
  lastRun: string | null;
  /**
   * Counts changes of the definition: 1 when created, +1 for each update that changes something and for its
   * archiving. Pausing, resuming and runs leave it as it is.
   */
  version: number;
  createdAt: string;
}

/** What an update may change. */
export type WorkflowDefinition = Pick<
  Workflow,
  'name' | 'trigger' | 'steps' | 'overlap' | 'maxConcurrentRuns' | 'concurrency'
> & {
  outputStep?: string | null;
  inputSchema?: Record<string, unknown> | null;
};

/**
 * What the decider also needs to refuse a schedule tick twice: the latest tick recorded (run or skipped), and
 * since when the workflow has been active (ticks at or before it belong to a time it did not exist or was paused).
 */
export interface WorkflowAggregate extends Workflow {
  lastScheduledFor: string | null;
  activeSince: string;
  /** The runs counted under the workflow's policy (see run-slots.ts); absent: none. */
  runs?: RunSlots;
}

export type WorkflowState = WorkflowAggregate | null;
