import { AgentDirectory } from '../../agents/agent-directory.port';
import { DomainError } from '../../domain/decider';
import { isId } from '../../shared/ids';
import { WorkflowStep, isAgentStep } from '../workflow/workflow.state';

/** Every step must name an existing agent that is not archived: a 422 names each step that does not. */
export function checkStepAgents(steps: WorkflowStep[], agents: AgentDirectory): void {
  const unknownAgents = steps.flatMap((step, i) =>
    !isAgentStep(step) || agents.hasAgentNamed(step.agent)
      ? []
      : [{ path: `steps[${i}].agent`, message: whyNot(step.agent, agents) }],
  );
  if (unknownAgents.length) {
    throw new DomainError('unprocessable', 'Every step must name an existing agent', unknownAgents);
  }
}

/** Why a step cannot name this agent, with a hint where one helps. */
export function whyNot(agent: string, agents: AgentDirectory): string {
  if (isId('agent', agent)) {
    const byId = agents.get(agent);
    const hint = byId ? `: this id is the agent named "${byId.name}"` : '';
    return `no agent is named "${agent}"; steps name agents by name, not by id${hint}`;
  }
  const archived = agents.archivedAgentNamed(agent);
  if (archived) return `the agent named "${agent}" (${archived}) is archived`;
  return `no agent is named "${agent}"`;
}
