import { DomainEvent, eventTypes } from '../../domain/decider';
import { RunError, RunSource } from '../../domain/run';
import { ParentRun, ReplayOf, WorkflowStep } from '../workflow/workflow.state';
import { SkipReason, WorkflowRun, WorkflowRunTrial } from './workflow-run.state';

/**
 * `experimentId`: the run answers an item of that experiment; `parent`: the run is a child run of that run's step
 * (each absent for the others).
 */
type RunEnded = { runId: string; experimentId?: string; parent?: { runId: string; index: number }; endedAt: string };
/** `workflowVersion` is absent from runs recorded before versions. */
export type WorkflowRunQueued = DomainEvent<
  'WorkflowRunQueued',
  Pick<WorkflowRun, 'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'> & {
    workflowVersion?: number;
    replayOf?: ReplayOf;
    source?: RunSource;
    experimentId?: string;
    trial?: WorkflowRunTrial;
    parent?: ParentRun;
  }
>;
export type WorkflowRunStarted = DomainEvent<
  'WorkflowRunStarted',
  {
    runId: string;
    workflowName: string;
    workflowVersion?: number;
    steps: WorkflowStep[];
    /** The step whose output is the run's, when the workflow names one. */
    outputStep?: string;
    /** The most items a map step may run over (WORKFLOW_MAX_MAP_ITEMS when the run started); absent: 1,000. */
    maxMapItems?: number;
    /** How deep child runs may nest (WORKFLOW_MAX_DEPTH when the run started); absent: 4. */
    maxDepth?: number;
    startedAt: string;
  }
>;
/**
 * `missing`: the placeholders of the step's action whose path led nowhere (left empty in `task`), as written; absent
 * when there were none, and from steps recorded before it was.
 */
export type WorkflowStepStarted = DomainEvent<
  'WorkflowStepStarted',
  {
    runId: string;
    index: number;
    agent: string;
    task: string;
    missing?: string[];
    agentRunId: string;
    startedAt: string;
  }
>;
/** A replay took a step's output from the run it replays (`fromRunId`), with no model call. */
export type WorkflowStepReused = DomainEvent<
  'WorkflowStepReused',
  { runId: string; index: number; fromRunId: string; output: string; outputObject?: unknown; reusedAt: string }
>;
/** A step not run: its `when` was false, or every step it needs was skipped. */
export type WorkflowStepSkipped = DomainEvent<
  'WorkflowStepSkipped',
  { runId: string; index: number; reason: SkipReason; skippedAt: string }
>;
/** An attempt of a step failed and it has attempts left: `nextAgentRunId` is queued at `retryAt`. */
export type WorkflowStepRetrying = DomainEvent<
  'WorkflowStepRetrying',
  { runId: string; index: number; agentRunId: string; error: RunError; nextAgentRunId: string; retryAt: string }
>;
/**
 * A repeating step's iteration succeeded but its `until` did not hold: the next iteration (`iteration`, from 2) is
 * queued at once as `nextAgentRunId`, with its action filled in again (`task`).
 */
export type WorkflowStepRepeating = DomainEvent<
  'WorkflowStepRepeating',
  {
    runId: string;
    index: number;
    agentRunId: string;
    output: string;
    iteration: number;
    task: string;
    missing?: string[];
    nextAgentRunId: string;
    repeatedAt: string;
  }
>;
/** The run reached an approval step: it waits for a person (POST …/approvals). */
export type WorkflowApprovalRequested = DomainEvent<
  'WorkflowApprovalRequested',
  { runId: string; index: number; approval: string; timeoutMs?: number; requestedAt: string }
>;
/** A wait step began to wait for a signal: its name, its key filled in (null: any key), and when it times out. */
export type WorkflowSignalAwaited = DomainEvent<
  'WorkflowSignalAwaited',
  {
    runId: string;
    index: number;
    stepId: string;
    signal: string;
    key: string | null;
    timeoutAt?: string;
    /** The wait's attempt: 2 and on, it waits again after timing out, as its `retry` allows. Absent: 1. */
    attempt?: number;
    awaitedAt: string;
  }
>;
/** A signal reached the waiting step: the step's WorkflowStepEnded, the signal's data its answer, follows. */
export type WorkflowSignalReceived = DomainEvent<
  'WorkflowSignalReceived',
  { runId: string; index: number; signalId: string; receivedAt: string }
>;
/** A sleep step sleeps until `until`; it holds nothing meanwhile. */
export type WorkflowStepSleeping = DomainEvent<
  'WorkflowStepSleeping',
  { runId: string; index: number; until: string; sleptAt: string }
>;
/** A workflow step started its child run (`childRunId`), of the workflow named `workflow`, with `input`. */
export type WorkflowChildRunStarted = DomainEvent<
  'WorkflowChildRunStarted',
  {
    runId: string;
    index: number;
    workflow: string;
    input: Record<string, unknown>;
    childRunId: string;
    startedAt: string;
  }
>;
/** A map step began over a list of `count` items; its items start as `WorkflowMapItemStarted`, `concurrency` at once. */
export type WorkflowMapStarted = DomainEvent<
  'WorkflowMapStarted',
  { runId: string; index: number; count: number; concurrency: number; startedAt: string }
>;
/** An item of a map step started: its agent run is queued with the step's action filled in for the item. */
export type WorkflowMapItemStarted = DomainEvent<
  'WorkflowMapItemStarted',
  {
    runId: string;
    index: number;
    item: number;
    task: string;
    missing?: string[];
    agentRunId: string;
    startedAt: string;
  }
>;
/** An item of a map step ended; once every item has, the step's WorkflowStepEnded holds their outputs in order. */
export type WorkflowMapItemEnded = DomainEvent<
  'WorkflowMapItemEnded',
  {
    runId: string;
    index: number;
    item: number;
    status: 'succeeded' | 'failed' | 'cancelled';
    output?: string;
    outputObject?: unknown;
    error?: RunError;
    endedAt: string;
  }
>;
export type WorkflowStepEnded = DomainEvent<
  'WorkflowStepEnded',
  {
    runId: string;
    index: number;
    status: 'succeeded' | 'failed' | 'cancelled';
    output?: string;
    outputObject?: unknown;
    error?: RunError;
    endedAt: string;
  }
>;
export type WorkflowRunSucceeded = DomainEvent<'WorkflowRunSucceeded', RunEnded & { output: string | null }>;
export type WorkflowRunFailed = DomainEvent<'WorkflowRunFailed', RunEnded & { error: RunError }>;
export type WorkflowRunCancelled = DomainEvent<'WorkflowRunCancelled', RunEnded>;
export type WorkflowRunEvent =
  | WorkflowRunQueued
  | WorkflowRunStarted
  | WorkflowStepStarted
  | WorkflowStepReused
  | WorkflowStepSkipped
  | WorkflowStepRetrying
  | WorkflowStepRepeating
  | WorkflowApprovalRequested
  | WorkflowSignalAwaited
  | WorkflowSignalReceived
  | WorkflowStepSleeping
  | WorkflowChildRunStarted
  | WorkflowMapStarted
  | WorkflowMapItemStarted
  | WorkflowMapItemEnded
  | WorkflowStepEnded
  | WorkflowRunSucceeded
  | WorkflowRunFailed
  | WorkflowRunCancelled;

export const WORKFLOW_RUN_EVENT_TYPES = eventTypes<WorkflowRunEvent>({
  WorkflowRunQueued: true,
  WorkflowRunStarted: true,
  WorkflowStepStarted: true,
  WorkflowStepReused: true,
  WorkflowStepSkipped: true,
  WorkflowStepRetrying: true,
  WorkflowStepRepeating: true,
  WorkflowApprovalRequested: true,
  WorkflowSignalAwaited: true,
  WorkflowSignalReceived: true,
  WorkflowStepSleeping: true,
  WorkflowChildRunStarted: true,
  WorkflowMapStarted: true,
  WorkflowMapItemStarted: true,
  WorkflowMapItemEnded: true,
  WorkflowStepEnded: true,
  WorkflowRunSucceeded: true,
  WorkflowRunFailed: true,
  WorkflowRunCancelled: true,
});

export const WORKFLOW_RUN_ENDINGS = ['WorkflowRunSucceeded', 'WorkflowRunFailed', 'WorkflowRunCancelled'] as const;

export const workflowRunStream = (runId: string) => `workflowrun-${runId}`;
