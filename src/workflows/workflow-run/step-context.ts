import { WorkflowRunAggregate } from './workflow-run.state';

/**
 * The context a step's agent run gets beside its task, as the step chose: none by default, since the task already
 * holds what its action names (sending every earlier output again made prompts grow with each step); the run's
 * input, the earlier steps' outputs, or all of it with the workflow.
 */
export function stepContext(run: WorkflowRunAggregate, index: number): Record<string, unknown> {
  const option = run.steps[index]?.context;
  if (!option) return {};
  const input = { input: run.input };
  const steps = {
    steps: run.steps.slice(0, index).map(({ index: i, agent, output }) => ({ index: i, agent, output })),
  };
  if (option === 'input') return input;
  if (option === 'steps') return steps;
  return { workflow: { id: run.workflowId, name: run.workflowName, runId: run.id }, ...input, ...steps };
}
