import { RunError, RunSource } from '../../domain/run';
import { IdGenerator } from '../../shared/ids';
import { ParentRun, ReplayOf, WorkflowStep } from '../workflow/workflow.state';
import { WorkflowRun, WorkflowRunTrial } from './workflow-run.state';

/** How a step's agent run ended. */
export type StepOutcome = { output: string; outputObject?: unknown } | { error: RunError } | { cancelled: true };

/**
 * Gives the id of a run the decision starts (a step's agent run, a retry, an item; with `wfrun`, a child workflow
 * run); called once per run started.
 */
export type NewRunId = (kind?: 'agentrun' | 'wfrun') => string;

/** The run ids a decision takes, from the service's id generator. */
export const runIdsFrom =
  (ids: IdGenerator): NewRunId =>
  (kind = 'agentrun') =>
    ids.newId(kind);

export type QueueWorkflowRun = { type: 'QueueWorkflowRun' } & Pick<
  WorkflowRun,
  'id' | 'workflowId' | 'input' | 'trigger' | 'createdAt'
> & {
    workflowVersion?: number;
    replayOf?: ReplayOf;
    source?: RunSource;
    experimentId?: string;
    trial?: WorkflowRunTrial;
    parent?: ParentRun;
  };
/** A step a replay takes from the run it replays. */
export interface ReusedStep {
  index: number;
  output: string;
  outputObject?: unknown;
}
export type StartWorkflowRun = {
  type: 'StartWorkflowRun';
  workflowName: string;
  workflowVersion: number;
  steps: WorkflowStep[];
  outputStep?: string;
  /** WORKFLOW_MAX_MAP_ITEMS, recorded on the run so that its decisions never depend on the instance. */
  maxMapItems?: number;
  /** WORKFLOW_MAX_DEPTH, recorded on the run as maxMapItems is. */
  maxDepth?: number;
  newRunId: NewRunId;
  /** A replay: the steps it takes from the run it replays. */
  reuse?: ReusedStep[];
};
export type EndWorkflowStep = {
  type: 'EndWorkflowStep';
  index: number;
  agentRunId: string;
  outcome: StepOutcome;
  newRunId: NewRunId;
};
/** Several steps' agent runs ended (as the log had them, in order): one decision, one append. */
export type EndWorkflowSteps = {
  type: 'EndWorkflowSteps';
  ends: Array<Pick<EndWorkflowStep, 'index' | 'agentRunId' | 'outcome'>>;
  newRunId: NewRunId;
};
/** A workflow step's child run ended: the step ends as it did (a failure retried by the step's rules). */
export type EndChildWorkflowStep = {
  type: 'EndChildWorkflowStep';
  index: number;
  childRunId: string;
  outcome: StepOutcome;
  newRunId: NewRunId;
};
/** Fails a step whose attempts have taken longer than its `timeoutMs`. */
export type ExpireWorkflowStep = { type: 'ExpireWorkflowStep'; index: number };
export type CancelWorkflowRun = { type: 'CancelWorkflowRun' };
/** A signal for the wait step at `index`: it ends the step, its data the step's answer, if the step waits for it. */
export type DeliverSignal = {
  type: 'DeliverSignal';
  index: number;
  signalId: string;
  signal: string;
  key: string | null;
  data: unknown;
  newRunId: NewRunId;
};
/** Fails a wait step past its `timeoutMs` with `signal_timeout`. */
export type ExpireWorkflowWait = { type: 'ExpireWorkflowWait'; index: number };
/** Wakes a sleep step whose time has come: it succeeds and the run goes on. */
export type WakeWorkflowStep = { type: 'WakeWorkflowStep'; index: number; newRunId: NewRunId };
/** A person's decision at the approval step the run waits at: approve goes on (`data` is the step's output). */
export type DecideWorkflowApproval = {
  type: 'DecideWorkflowApproval';
  decision: 'approve' | 'reject';
  reason?: string;
  data?: Record<string, unknown>;
  newRunId: NewRunId;
};
/** Fails a run that has waited at an approval step past its `timeoutMs`. */
export type ExpireWorkflowApproval = { type: 'ExpireWorkflowApproval' };
export type WorkflowRunCommand =
  | QueueWorkflowRun
  | StartWorkflowRun
  | EndWorkflowStep
  | EndWorkflowSteps
  | EndChildWorkflowStep
  | CancelWorkflowRun
  | DecideWorkflowApproval
  | ExpireWorkflowApproval
  | DeliverSignal
  | ExpireWorkflowWait
  | WakeWorkflowStep
  | ExpireWorkflowStep;
