import { Decider } from '../../domain/decider';
import { WorkflowCommand } from './workflow.commands';
import { WorkflowEvent } from './workflow.events';
import { workflowSnapshot } from './workflow.snapshot';
import { WorkflowState } from './workflow.state';
import { decideWorkflow } from './decide';
import { evolveWorkflow } from './evolve';

/** A workflow as a decider: its commands are decided in decide.ts, its events folded in evolve.ts. */
export const workflowDecider: Decider<WorkflowState, WorkflowCommand, WorkflowEvent> = {
  initialState: null,
  decide: decideWorkflow,
  evolve: evolveWorkflow,
  snapshot: workflowSnapshot,
};
