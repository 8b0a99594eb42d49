import { DomainEvent, eventTypes } from '../../domain/decider';
import { RunSource } from '../../domain/run';
import { ReplayOf, RunTrigger, Workflow, WorkflowDefinition, ParentRun } from './workflow.state';

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
    source?: RunSource;
    /** A child run: the run and step that started it. */
    parent?: ParentRun;
    /** The run's concurrency key, filled in from its input, when the workflow has `concurrency`. */
    concurrencyKey?: string;
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
