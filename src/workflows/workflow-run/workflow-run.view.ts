import { WorkflowRun, WorkflowRunAggregate } from './workflow-run.state';

/**
 * The public view of a run: without what the run keeps for its own decisions (the workflow's name and output step,
 * the limits it started with, its parent's depth; a child run shows `parentRunId` and `parentStep`).
 */
export function toWorkflowRun(aggregate: WorkflowRunAggregate): WorkflowRun {
  const {
    workflowName: _name,
    outputStep: _output,
    maxMapItems: _items,
    maxDepth: _depth,
    parent: _parent,
    ...run
  } = aggregate;
  // Runs recorded before steps kept their task have none.
  return { ...run, steps: run.steps.map((step) => ({ ...step, task: step.task ?? null })) };
}
