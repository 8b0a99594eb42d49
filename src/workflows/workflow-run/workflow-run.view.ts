import { WorkflowRun, WorkflowRunAggregate } from './workflow-run.state';

/** The public view of a run: without the workflow's name and output step, which the run keeps for itself. */
export function toWorkflowRun({ workflowName: _name, outputStep: _output, ...run }: WorkflowRunAggregate): WorkflowRun {
  // Runs recorded before steps kept their task have none.
  return { ...run, steps: run.steps.map((step) => ({ ...step, task: step.task ?? null })) };
}
