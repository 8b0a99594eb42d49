import { EventStore } from '../../event-store/event-store';
import { WorkflowStep } from '../../workflows/workflow/workflow.state';
import { WorkflowRunStarted, workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';
import { WorkflowRunAggregate } from '../../workflows/workflow-run/workflow-run.state';
import { WorkflowRunActors } from './workflow-run-actors';

/** A run a replay replays: how it ended, and its steps' definition as it started them. */
export interface ReplayedRun {
  run: WorkflowRunAggregate;
  steps: WorkflowStep[];
  workflowVersion?: number;
  outputStep?: string;
}

/** The run a replay replays, from its actor and its WorkflowRunStarted; undefined when it never started. */
export async function replayedRun(
  runs: WorkflowRunActors,
  store: EventStore,
  runId: string,
): Promise<ReplayedRun | undefined> {
  const run = await runs.read(runId);
  if (!run) return undefined;
  const { events } = await store.readStream(workflowRunStream(runId));
  const started = events.find((event) => event.type === 'WorkflowRunStarted');
  if (!started) return undefined;
  const { steps, workflowVersion, outputStep } = started.data as WorkflowRunStarted['data'];
  return { run, steps, workflowVersion, outputStep };
}
