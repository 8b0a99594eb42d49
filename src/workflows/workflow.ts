import { Decider, DomainError, DomainEvent, SnapshotFormat, eventTypes } from '../domain/decider';
import { Preconditions, checkBaseVersion, checkIfMatch } from '../domain/definition';
import { StepCondition } from './step-condition';

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
  lastRun: string | null;
  /**
   * Counts changes of the definition: 1 when created, +1 for each update that changes something and for its
   * archiving. Pausing, resuming and runs leave it as it is.
   */
  version: number;
  createdAt: string;
}

/** What an update may change. */
export type WorkflowDefinition = Pick<Workflow, 'name' | 'trigger' | 'steps'> & { outputStep?: string | null };

/**
 * What the decider also needs to refuse a schedule tick twice: the latest tick recorded (run or skipped), and
 * since when the workflow has been active (ticks at or before it belong to a time it did not exist or was paused).
 */
export interface WorkflowAggregate extends Workflow {
  lastScheduledFor: string | null;
  activeSince: string;
}

export type WorkflowState = WorkflowAggregate | null;

export type CreateWorkflow = { type: 'CreateWorkflow' } & Pick<
  Workflow,
  'id' | 'name' | 'trigger' | 'steps' | 'outputStep'
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
export type WorkflowCommand =
  | CreateWorkflow
  | TriggerWorkflow
  | PauseWorkflow
  | ResumeWorkflow
  | SkipScheduledRuns
  | UpdateWorkflow
  | ArchiveWorkflow;

export type WorkflowCreated = DomainEvent<'WorkflowCreated', Omit<Workflow, 'status' | 'lastRun' | 'version'>>;
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
  | WorkflowUpdated
  | WorkflowArchived;

export const WORKFLOW_EVENT_TYPES = eventTypes<WorkflowEvent>({
  WorkflowCreated: true,
  WorkflowTriggered: true,
  WorkflowPaused: true,
  WorkflowResumed: true,
  ScheduledRunsSkipped: true,
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
  version: 1,
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
      const { type: _type, ...workflow } = command;
      return [{ type: 'WorkflowCreated', data: { ...workflow, createdAt: now.toISOString() } }];
    }
    if (!state) throw new DomainError('not_found', `Workflow ${command.workflowId} does not exist`);
    const { workflowId } = command;
    if (command.type === 'ArchiveWorkflow') return archive(state, command, now);
    checkIfMatch('Workflow', workflowId, state, command as Preconditions);
    if (state.status === 'archived') throw new DomainError('conflict', `Workflow ${workflowId} is archived`);
    switch (command.type) {
      case 'TriggerWorkflow': {
        const { runId, input, trigger, replay } = command;
        if (trigger.type === 'schedule') checkTick(state, trigger.scheduledFor);
        const workflowVersion = replay?.workflowVersion ?? state.version;
        const triggeredAt = now.toISOString();
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
      const { id, name, trigger, steps, createdAt, outputStep } = event.data;
      return {
        id,
        name,
        status: 'active',
        trigger,
        steps,
        ...(outputStep !== undefined && { outputStep }),
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
        const lastScheduledFor = trigger.type === 'schedule' ? trigger.scheduledFor : state.lastScheduledFor;
        return { ...state, lastRun: triggeredAt, lastScheduledFor };
      }
      case 'ScheduledRunsSkipped':
        return { ...state, lastScheduledFor: event.data.last };
      case 'WorkflowPaused':
        return { ...state, status: 'paused' };
      case 'WorkflowResumed':
        return { ...state, status: 'active', activeSince: event.data.resumedAt };
      case 'WorkflowUpdated': {
        const { changes, version, updatedAt } = event.data;
        // A changed trigger starts afresh: no tick of the schedule before the change is due.
        const activeSince = changes.trigger && state.status === 'active' ? updatedAt : state.activeSince;
        const { outputStep, ...rest } = { ...state, ...changes, version, activeSince };
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
  const at = Date.parse(scheduledFor);
  if (state.lastScheduledFor !== null && at <= Date.parse(state.lastScheduledFor)) {
    throw new DomainError('conflict', `Workflow ${id} has already recorded its tick of ${state.lastScheduledFor}`);
  }
  if (at <= Date.parse(state.activeSince)) {
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
