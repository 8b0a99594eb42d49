import { Decider } from '../../domain/decider';
import { WorkflowRunCommand } from './workflow-run.commands';
import { WORKFLOW_RUN_ENDINGS, WorkflowRunEvent } from './workflow-run.events';
import { WorkflowRunState } from './workflow-run.state';
import { decideWorkflowRun } from './decide';
import { evolveWorkflowRun } from './evolve';

/** A workflow run as a decider: its commands are decided in decide.ts, its events folded in evolve.ts. */
export const workflowRunDecider: Decider<WorkflowRunState, WorkflowRunCommand, WorkflowRunEvent> = {
  initialState: null,
  // A run's stream is used a few times within moments, then never again.
  cacheActors: false,
  decide: (state, command, now) => withExperiment(state, decideWorkflowRun(state, command, now)),
  evolve: evolveWorkflowRun,
};

/** The ending of an experiment's run names the experiment, so the experiment's runner needs no look at the run. */
function withExperiment(state: WorkflowRunState, events: WorkflowRunEvent[]): WorkflowRunEvent[] {
  const experimentId = state?.experimentId;
  if (!experimentId) return events;
  return events.map((event) =>
    (WORKFLOW_RUN_ENDINGS as readonly string[]).includes(event.type)
      ? ({ ...event, data: { ...event.data, experimentId } } as WorkflowRunEvent)
      : event,
  );
}
