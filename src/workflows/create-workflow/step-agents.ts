import { AgentsReadModel } from '../../agents/queries/agents.read-model';
import { DomainError } from '../../domain/decider';
import { WorkflowStep, isApprovalStep } from '../workflow';

/** Every step must name an existing agent that is not archived: a 422 names each step that does not. */
export function checkStepAgents(steps: WorkflowStep[], agents: AgentsReadModel): void {
  const unknownAgents = steps.flatMap((step, i) =>
    isApprovalStep(step) || agents.hasAgentNamed(step.agent)
      ? []
      : [{ path: `steps[${i}].agent`, message: `no agent is named "${step.agent}"` }],
  );
  if (unknownAgents.length) {
    throw new DomainError('unprocessable', 'Every step must name an existing agent', unknownAgents);
  }
}
