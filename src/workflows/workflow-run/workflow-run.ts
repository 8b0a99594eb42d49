import { Decider } from '../../domain/decider';
import { WorkflowRunCommand } from './workflow-run.commands';
import { WorkflowRunEvent } from './workflow-run.events';
import { WorkflowRunState } from './workflow-run.state';
import { decideWorkflowRun } from './decide';
import { evolveWorkflowRun } from './evolve';

/** A workflow run as a decider: its commands are decided in decide.ts, its events folded in evolve.ts. */
export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: null,
  // A run's stream is used a few times within moments, then never again.
  cacheActors: false,
  decide: decideWorkflowRun,
  evolve: evolveWorkflowRun,
};
