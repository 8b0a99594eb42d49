import type { AgentTrials } from '../../agents/agent-trials.port';
import { ValidationFailed } from '../../shared/validation-failed';
import type { ExperimentPlan } from '../experiment';

/**
 * Checks an experiment's `target.overrides` as a PATCH of the agent at the target's version would be checked:
 * known fields only, the merged definition valid, its tools, models and agents known. Each problem is a 400 naming
 * its field under `target.overrides`.
 */
export async function checkTrial({ agentId, agentVersion, overrides }: ExperimentPlan['target'], trials: AgentTrials) {
  if (!overrides) return;
  try {
    await trials.check(agentId, agentVersion, overrides);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    // A patch's own problem is named `body` (as a PATCH's body is): here it is `target.overrides` itself.
    const under = (path: string) => (path === 'body' ? 'target.overrides' : `target.overrides.${path}`);
    throw new ValidationFailed(error.errors.map(({ path, message }) => ({ path: under(path), message })));
  }
}
