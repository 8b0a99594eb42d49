import { Preconditions } from '../../domain/definition';
import { RunSource } from '../../domain/run';
import { ReplayOf, RunTrigger, Workflow, WorkflowDefinition, ParentRun } from './workflow.state';

export type CreateWorkflow = { type: 'CreateWorkflow' } & Pick<
  Workflow,
  'id' | 'name' | 'trigger' | 'steps' | 'outputStep' | 'inputSchema' | 'overlap' | 'maxConcurrentRuns' | 'concurrency'
>;
export type TriggerWorkflow = {
  type: 'TriggerWorkflow';
  workflowId: string;
  runId: string;
  input: Record<string, unknown>;
  trigger: RunTrigger;
  /** A replay, and the version it runs. */
  replay?: { replayOf: ReplayOf; workflowVersion: number };
  /** The protocol session the run was asked for in, if not the HTTP API. */
  source?: RunSource;
  /** A child run: the run and step that started it. */
  parent?: ParentRun;
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
/** Runs the schedule's ticks of a window in the past (in order), each with the run id it would start. */
export type BackfillWorkflow = {
  type: 'BackfillWorkflow';
  workflowId: string;
  ticks: Array<{ scheduledFor: string; runId: string }>;
};
/** A counted run ended: its slot goes to the next run waiting; `nextRunId` is for a buffered tick it lets start. */
export type ReleaseWorkflowRun = { type: 'ReleaseWorkflowRun'; workflowId: string; runId: string; nextRunId: string };
export type WorkflowCommand =
  | CreateWorkflow
  | ReleaseWorkflowRun
  | TriggerWorkflow
  | BackfillWorkflow
  | PauseWorkflow
  | ResumeWorkflow
  | SkipScheduledRuns
  | UpdateWorkflow
  | ArchiveWorkflow;
