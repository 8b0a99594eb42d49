import type { AgentTrials } from '../../agents/agent-trials.port';
import { ValidationFailed } from '../../shared/validation-failed';
import type { WorkflowTrials } from '../../workflows/workflow-trials.port';
import { ExperimentTarget, isWorkflowTarget } from '../experiment';

/**
 * Checks an experiment's `target.overrides` as a PATCH of the agent or workflow at the target's version would be
 * checked: known fields only, the merged definition valid, what it names known. Each problem is a 400 naming its
 * field under `target.overrides`.
 */
export async function checkTrial(
  target: ExperimentTarget,
  trials: { agents: AgentTrials; workflows: WorkflowTrials },
): Promise<void> {
  const { overrides } = target;
  if (!overrides) return;
  try {
    if (isWorkflowTarget(target)) await trials.workflows.check(target.workflowId, target.workflowVersion, overrides);
    else await trials.agents.check(target.agentId, target.agentVersion, overrides);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    // A patch's own problem is named `body` (as a PATCH's body is): here it is `target.overrides` itself.
    const under = (path: string) => (path === 'body' ? 'target.overrides' : `target.overrides.${path}`);
    throw new ValidationFailed(error.errors.map(({ path, message }) => ({ path: under(path), message })));
  }
}
