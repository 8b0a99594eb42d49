import { Decider, DomainError, DomainEvent, SnapshotFormat, eventTypes } from '../domain/decider';
import { Preconditions, checkBaseVersion, checkIfMatch } from '../domain/definition';
import { isoTime } from '../shared/clock';
import { StepCondition } from './step-condition';
import {
  NO_RUNS,
  OverlapPolicy,
  RunSlots,
  admit,
  admittedAfter,
  anyGoing,
  isCounted,
  released,
  tracksRuns,
} from '../domain/run-slots';

export type WorkflowStatus = 'active' | 'paused' | 'archived';
export const WORKFLOW_STATUSES: WorkflowStatus[] = ['active', 'paused', 'archived'];

export type WorkflowTrigger = { type: 'manual' } | { type: 'schedule'; cron: string; timezone: string };
/** A replay: the run it replays, and the step it runs again from. */
export interface ReplayOf {
  runId: string;
  fromStep: string;
}

/** What started a run. */
export type RunTrigger = { type: 'manual' } | { type: 'schedule'; scheduledFor: string };

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

export interface AgentStep extends StepPlacement {
  agent: string;
  action: string;
  /** Absent: the task alone. */
  context?: StepContextOption;
  retry?: StepRetry;
  /** Bounds all of its attempts together. */
  timeoutMs?: number;
}

/** A step that waits for a person: `approval` is the text shown to the approver. */
export interface ApprovalStep extends StepPlacement {
  approval: string;
  timeoutMs?: number;
}

export type WorkflowStep = AgentStep | ApprovalStep;

export function isApprovalStep(step: WorkflowStep): step is ApprovalStep {
  return 'approval' in step;
}

export interface Workflow {
  id: string;
  name: string;
  status: WorkflowStatus;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  /** The step whose output is the run's output; absent: the last step by position among those that ran. */
  outputStep?: string;
  /** What a schedule tick does while a run is still going; absent in workflows recorded before it: `allow`. */
  overlap?: OverlapPolicy;
  /** At most this many runs at once, the others wait in order; absent or null: no limit. */
  maxConcurrentRuns?: number | null;
  lastRun: string | null;
  /**
   * Counts changes of the definition: 1 when created, +1 for each update that changes something and for its
   * archiving. Pausing, resuming and runs leave it as it is.
   */
  version: number;
  createdAt: string;
}

/** What an update may change. */
export type WorkflowDefinition = Pick<Workflow, 'name' | 'trigger' | 'steps' | 'overlap' | 'maxConcurrentRuns'> & {
  outputStep?: string | null;
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

export type CreateWorkflow = { type: 'CreateWorkflow' } & Pick<
  Workflow,
  'id' | 'name' | 'trigger' | 'steps' | 'outputStep' | 'overlap' | 'maxConcurrentRuns'
>;
export type TriggerWorkflow = {
  type: 'TriggerWorkflow';
  workflowId: string;
  runId: string;
  input: Record<string, unknown>;
  trigger: RunTrigger;
  /** A replay, and the version it runs. */
  replay?: { replayOf: ReplayOf; workflowVersion: number };
};
export type PauseWorkflow = { type: 'PauseWorkflow'; workflowId: string };
export type ResumeWorkflow = { type: 'ResumeWorkflow'; workflowId: string };
/** `changes` were merged onto version `baseVersion`; the fields that do not change are left out. */
export type UpdateWorkflow = {
  type: 'UpdateWorkflow';
  workflowId: string;
  changes: Partial<WorkflowDefinition>;
  baseVersion: number;
} & Preconditions;
export type ArchiveWorkflow = { type: 'ArchiveWorkflow'; workflowId: string } & Preconditions;
/** Records schedule ticks that were not run (missed while the service was down): every tick from first to last. */
export type SkipScheduledRuns = {
  type: 'SkipScheduledRuns';
  workflowId: string;
  first: string;
  last: string;
  count: number | null;
};
/** A counted run ended: its slot goes to the next run waiting; `nextRunId` is for a buffered tick it lets start. */
export type ReleaseWorkflowRun = { type: 'ReleaseWorkflowRun'; workflowId: string; runId: string; nextRunId: string };
export type WorkflowCommand =
  | CreateWorkflow
  | ReleaseWorkflowRun
  | TriggerWorkflow
  | PauseWorkflow
  | ResumeWorkflow
  | SkipScheduledRuns
  | UpdateWorkflow
  | ArchiveWorkflow;

export type WorkflowCreated = DomainEvent<'WorkflowCreated', Omit<Workflow, 'status' | 'lastRun' | 'version'>>;
/** A tick came while a run was going, under `overlap: "skip"`: it is not run. */
export type ScheduledTickSkipped = DomainEvent<
  'ScheduledTickSkipped',
  { workflowId: string; scheduledFor: string; reason: 'overlap'; runIds: string[]; skippedAt: string }
>;
/** A tick came while a run was going, under `overlap: "buffer_one"`: it runs when the runs end; it replaces an older one. */
export type ScheduledTickBuffered = DomainEvent<
  'ScheduledTickBuffered',
  { workflowId: string; scheduledFor: string; replaces: string | null; bufferedAt: string }
>;
/** A counted run ended; `admitted`: the runs that were waiting for its slot and start now. */
export type WorkflowRunReleased = DomainEvent<
  'WorkflowRunReleased',
  { workflowId: string; runId: string; admitted: string[]; releasedAt: string }
>;
/** `workflowVersion`: the version triggered (absent from triggers recorded before versions). */
export type WorkflowTriggered = DomainEvent<
  'WorkflowTriggered',
  {
    workflowId: string;
    runId: string;
    input: Record<string, unknown>;
    trigger: RunTrigger;
    workflowVersion?: number;
    triggeredAt: string;
    /** A replay of another run (its version is the one replayed, unless the replay asked for the current one). */
    replayOf?: ReplayOf;
  }
>;
export type WorkflowPaused = DomainEvent<'WorkflowPaused', { workflowId: string; pausedAt: string }>;
export type WorkflowResumed = DomainEvent<'WorkflowResumed', { workflowId: string; resumedAt: string }>;
/** `count` is null when there were too many ticks to count at start-up (see scheduling/due-ticks.ts). */
export type ScheduledRunsSkipped = DomainEvent<
  'ScheduledRunsSkipped',
  { workflowId: string; first: string; last: string; count: number | null; skippedAt: string }
>;
/** Only the changed fields, with their new values; `version` is the workflow's version after the change. */
export type WorkflowUpdated = DomainEvent<
  'WorkflowUpdated',
  { workflowId: string; changes: Partial<WorkflowDefinition>; version: number; updatedAt: string }
>;
export type WorkflowArchived = DomainEvent<
  'WorkflowArchived',
  { workflowId: string; version: number; archivedAt: string }
>;
export type WorkflowEvent =
  | WorkflowCreated
  | WorkflowTriggered
  | WorkflowPaused
  | WorkflowResumed
  | ScheduledRunsSkipped
  | ScheduledTickSkipped
  | ScheduledTickBuffered
  | WorkflowRunReleased
  | WorkflowUpdated
  | WorkflowArchived;

export const WORKFLOW_EVENT_TYPES = eventTypes<WorkflowEvent>({
  WorkflowCreated: true,
  WorkflowTriggered: true,
  WorkflowPaused: true,
  WorkflowResumed: true,
  ScheduledRunsSkipped: true,
  ScheduledTickSkipped: true,
  ScheduledTickBuffered: true,
  WorkflowRunReleased: true,
  WorkflowUpdated: true,
  WorkflowArchived: true,
});

export const workflowStream = (workflowId: string) => `workflow-${workflowId}`;

/**
 * A workflow's snapshot is its state as it is: plain JSON, and bounded (triggers move `lastRun` and
 * `lastScheduledFor` but add nothing), so a snapshot stays small however often the workflow runs.
 * Bump `version` with any change to WorkflowAggregate or to what `evolve` makes of past events.
 */
const workflowSnapshot: SnapshotFormat<WorkflowState> = {
  version: 2,
  fromJson(json) {
    if (json === null || isWorkflowAggregate(json)) return json;
    throw new Error('not the state of a workflow');
  },
};

export const workflowDecider: Decider<WorkflowState, WorkflowCommand, WorkflowEvent> = {
  initialState: null,

  decide(state, command, now) {
    if (command.type === 'CreateWorkflow') {
      if (state) throw new DomainError('conflict', `Workflow ${command.id} already exists`);
      const { type: _type, overlap, maxConcurrentRuns, ...workflow } = command;
      // The policy is recorded only when it is not the default.
      const policy = {
        ...(overlap && overlap !== 'allow' && { overlap }),
        ...(typeof maxConcurrentRuns === 'number' && { maxConcurrentRuns }),
      };
      return [{ type: 'WorkflowCreated', data: { ...workflow, ...policy, createdAt: now.toISOString() } }];
    }
    if (!state) throw new DomainError('not_found', `Workflow ${command.workflowId} does not exist`);
    const { workflowId } = command;
    if (command.type === 'ReleaseWorkflowRun') return release(state, command, now);
    if (command.type === 'ArchiveWorkflow') return archive(state, command, now);
    checkIfMatch('Workflow', workflowId, state, command as Preconditions);
    if (state.status === 'archived') throw new DomainError('conflict', `Workflow ${workflowId} is archived`);
    switch (command.type) {
      case 'TriggerWorkflow': {
        const { runId, input, trigger, replay } = command;
        if (trigger.type === 'schedule') {
          checkTick(state, trigger.scheduledFor);
          const overlapping = overlapOf(state, trigger.scheduledFor, now);
          if (overlapping) return [overlapping];
        }
        const workflowVersion = replay?.workflowVersion ?? state.version;
        const triggeredAt = isoTime(now);
        const data = {
          workflowId,
          runId,
          input,
          trigger,
          workflowVersion,
          triggeredAt,
          ...(replay && { replayOf: replay.replayOf }),
        };
        return [{ type: 'WorkflowTriggered', data }];
      }
      case 'UpdateWorkflow': {
        checkBaseVersion('Workflow', workflowId, state, command.baseVersion);
        if (Object.keys(command.changes).length === 0) return [];
        const data = { workflowId, changes: command.changes, version: state.version + 1, updatedAt: now.toISOString() };
        return [{ type: 'WorkflowUpdated', data }];
      }
      case 'SkipScheduledRuns': {
        const { first, last, count } = command;
        if (Date.parse(last) < Date.parse(first)) throw new DomainError('unprocessable', 'last is before first');
        checkTick(state, first);
        return [
          { type: 'ScheduledRunsSkipped', data: { workflowId, first, last, count, skippedAt: now.toISOString() } },
        ];
      }
      case 'PauseWorkflow':
        if (state.status === 'paused') return [];
        return [{ type: 'WorkflowPaused', data: { workflowId, pausedAt: now.toISOString() } }];
      case 'ResumeWorkflow':
        if (state.status === 'active') return [];
        return [{ type: 'WorkflowResumed', data: { workflowId, resumedAt: now.toISOString() } }];
    }
  },

  evolve(state, event) {
    if (event.type === 'WorkflowCreated') {
      const { id, name, trigger, steps, createdAt, outputStep, overlap, maxConcurrentRuns } = event.data;
      return {
        id,
        name,
        status: 'active',
        trigger,
        steps,
        ...(outputStep !== undefined && { outputStep }),
        ...(overlap && { overlap }),
        ...(typeof maxConcurrentRuns === 'number' && { maxConcurrentRuns }),
        lastRun: null,
        version: 1,
        createdAt,
        lastScheduledFor: null,
        activeSince: createdAt,
      };
    }
    if (!state) return state;
    switch (event.type) {
      case 'WorkflowTriggered': {
        const { trigger, triggeredAt } = event.data;
        const scheduled = trigger.type === 'schedule' ? trigger.scheduledFor : null;
        const lastScheduledFor = later(scheduled, state.lastScheduledFor);
        return { ...state, lastRun: triggeredAt, lastScheduledFor, ...countRun(state, event.data.runId, scheduled) };
      }
      case 'ScheduledRunsSkipped':
        return { ...state, lastScheduledFor: event.data.last };
      case 'ScheduledTickSkipped':
        return { ...state, lastScheduledFor: event.data.scheduledFor };
      case 'ScheduledTickBuffered': {
        const { scheduledFor } = event.data;
        return {
          ...state,
          lastScheduledFor: scheduledFor,
          runs: { ...(state.runs ?? NO_RUNS), bufferedTick: scheduledFor },
        };
      }
      case 'WorkflowRunReleased': {
        const { runId, admitted } = event.data;
        return { ...state, runs: released(state.runs ?? NO_RUNS, runId, admitted) };
      }
      case 'WorkflowPaused':
        // A tick kept for later belongs to the schedule that stops.
        return { ...state, status: 'paused', ...(state.runs && { runs: { ...state.runs, bufferedTick: null } }) };
      case 'WorkflowResumed':
        return { ...state, status: 'active', activeSince: event.data.resumedAt };
      case 'WorkflowUpdated': {
        const { changes, version, updatedAt } = event.data;
        // A changed trigger starts afresh: no tick of the schedule before the change is due.
        const activeSince = changes.trigger && state.status === 'active' ? updatedAt : state.activeSince;
        // A tick kept for later belongs to the schedule it came from.
        const runs = changes.trigger && state.runs ? { runs: { ...state.runs, bufferedTick: null } } : {};
        const { outputStep, ...rest } = { ...state, ...changes, version, activeSince, ...runs };
        return { ...rest, ...(typeof outputStep === 'string' && { outputStep }) };
      }
      case 'WorkflowArchived':
        return { ...state, status: 'archived', version: event.data.version };
      default:
        return state;
    }
  },

  snapshot: workflowSnapshot,
};

/**
 * A tick while a counted run is going: under `skip` it is recorded as skipped, under `buffer_one` kept (replacing an
 * older kept one) to run when the runs end. Undefined: it runs.
 */
function overlapOf(state: WorkflowAggregate, scheduledFor: string, now: Date): WorkflowEvent | undefined {
  const { id: workflowId, runs } = state;
  if (!anyGoing(runs)) return undefined;
  if (state.overlap === 'skip') {
    const runIds = [...runs!.open, ...runs!.held];
    const data = { workflowId, scheduledFor, reason: 'overlap' as const, runIds, skippedAt: now.toISOString() };
    return { type: 'ScheduledTickSkipped', data };
  }
  if (state.overlap === 'buffer_one') {
    const data = { workflowId, scheduledFor, replaces: runs!.bufferedTick, bufferedAt: now.toISOString() };
    return { type: 'ScheduledTickBuffered', data };
  }
  return undefined;
}

/**
 * A counted run ended (whatever the workflow's status): the runs waiting for its slot are admitted, and once no
 * run is going a buffered tick starts as a new run (only while the workflow is active).
 */
function release(state: WorkflowAggregate, command: ReleaseWorkflowRun, now: Date): WorkflowEvent[] {
  const { workflowId, runId, nextRunId } = command;
  if (!isCounted(state.runs, runId)) return [];
  const slots = state.runs!;
  const admitted = admittedAfter(slots, state, runId);
  const at = now.toISOString();
  const events: WorkflowEvent[] = [
    { type: 'WorkflowRunReleased', data: { workflowId, runId, admitted, releasedAt: at } },
  ];
  const after = released(slots, runId, admitted);
  if (!anyGoing(after) && after.bufferedTick && state.status === 'active' && state.trigger.type === 'schedule') {
    const trigger = { type: 'schedule' as const, scheduledFor: after.bufferedTick };
    const data = { workflowId, runId: nextRunId, input: {}, trigger, workflowVersion: state.version, triggeredAt: at };
    events.push({ type: 'WorkflowTriggered', data });
  }
  return events;
}

/** A new run under a policy is counted; a buffered tick that starts is no longer kept. */
function countRun(state: WorkflowAggregate, runId: string, scheduled: string | null): Pick<WorkflowAggregate, 'runs'> {
  if (!tracksRuns(state) && !state.runs) return {};
  let runs = state.runs ?? NO_RUNS;
  if (scheduled !== null && runs.bufferedTick === scheduled) runs = { ...runs, bufferedTick: null };
  return { runs: tracksRuns(state) ? admit(runs, state, runId) : runs };
}

function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return isAfter(b, a) ? b : a;
}

/**
 * Whether instant `a` comes after `b`. Two times as `toISOString` writes them compare as text, which spares a tick's
 * thousands of triggers their Date.parse calls; any other form is parsed.
 */
function isAfter(a: string, b: string): boolean {
  return a.length === 24 && b.length === 24 && a[23] === 'Z' && b[23] === 'Z' ? a > b : Date.parse(a) > Date.parse(b);
}

/** Archiving again changes nothing, whatever version the client last saw. */
function archive(state: WorkflowAggregate, command: ArchiveWorkflow, now: Date): WorkflowEvent[] {
  if (state.status === 'archived') return [];
  checkIfMatch('Workflow', command.workflowId, state, command);
  const data = { workflowId: command.workflowId, version: state.version + 1, archivedAt: now.toISOString() };
  return [{ type: 'WorkflowArchived', data }];
}

/**
 * A schedule tick is accepted once: ticks only move forward, so remembering the latest one is enough, and
 * any number of schedulers sending the same tick produce one run.
 */
function checkTick(state: WorkflowAggregate, scheduledFor: string): void {
  const id = state.id;
  if (state.trigger.type !== 'schedule') throw new DomainError('conflict', `Workflow ${id} has no schedule`);
  if (state.status === 'paused') throw new DomainError('conflict', `Workflow ${id} is paused`);
  if (state.lastScheduledFor !== null && !isAfter(scheduledFor, state.lastScheduledFor)) {
    throw new DomainError('conflict', `Workflow ${id} has already recorded its tick of ${state.lastScheduledFor}`);
  }
  if (!isAfter(scheduledFor, state.activeSince)) {
    throw new DomainError('conflict', `Workflow ${id} was not active at ${scheduledFor}`);
  }
}

const STRINGS = ['id', 'name', 'status', 'createdAt', 'activeSince'] as const;
const NULLABLE_STRINGS = ['lastRun', 'lastScheduledFor'] as const;

function isWorkflowAggregate(json: unknown): json is WorkflowAggregate {
  if (typeof json !== 'object' || json === null) return false;
  const state = json as Record<string, unknown>;
  return (
    STRINGS.every((key) => typeof state[key] === 'string') &&
    NULLABLE_STRINGS.every((key) => state[key] === null || typeof state[key] === 'string') &&
    typeof state.version === 'number' &&
    Array.isArray(state.steps) &&
    typeof (state.trigger as { type?: unknown } | null)?.type === 'string'
  );
}
