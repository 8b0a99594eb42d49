import { WorkflowTriggered } from '../workflow/workflow.events';
import { WorkflowRunQueued } from './workflow-run.events';
import { WorkflowRun, WorkflowRunAggregate } from './workflow-run.state';

/** A run as its trigger records it: what its stream's opening command and its WorkflowRunQueued event carry. */
export type QueuedRun = WorkflowRunQueued['data'];

/** The run a trigger makes (the trigger alone records it; its stream is opened with it, or after it). */
export function queuedRunOf(triggered: WorkflowTriggered['data']): QueuedRun {
  const { runId, workflowId, input, trigger, workflowVersion, triggeredAt, replayOf, source, parent } = triggered;
  return {
    id: runId,
    workflowId,
    input,
    trigger,
    workflowVersion,
    createdAt: triggeredAt,
    ...(replayOf && { replayOf }),
    ...(source && { source }),
    ...(parent && { parent }),
  };
}

/** The same, from the run as it stands while its stream is not opened yet (as the read models list it). */
export function queuedRunFrom(run: WorkflowRun & Pick<WorkflowRunAggregate, 'parent'>): QueuedRun {
  const { id, workflowId, input, trigger, workflowVersion, createdAt, replayOf, source, parent } = run;
  return {
    id,
    workflowId,
    input,
    trigger,
    ...(workflowVersion !== null && { workflowVersion }),
    createdAt,
    ...(replayOf && { replayOf }),
    ...(source && { source }),
    ...(parent && { parent }),
  };
}
