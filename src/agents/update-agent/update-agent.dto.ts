import { checkPatchFields } from '../../http/patch-body';
import { validateAs } from '../../http/validate-as';
import { applyMergePatch } from '../../shared/json-merge-patch';
import { Agent, AgentDefinition, pickDefinition, withDefaults } from '../agent';
import { CreateAgentDto } from '../create-agent/create-agent.dto';

export const EDITABLE_AGENT_FIELDS = [
  'name',
  'model',
  'description',
  'instructions',
  'tools',
  'maxSteps',
  'outputSchema',
  'memory',
  'approvalRequired',
  'fallbackModels',
  'guardrails',
  'handoffs',
  'scorers',
] as const;

const READ_ONLY_AGENT_FIELDS: Record<string, string> = {
  id: 'cannot be changed',
  status: 'cannot be changed by PATCH (DELETE archives the agent)',
  version: 'cannot be changed (it counts the changes)',
  createdAt: 'cannot be changed',
};

/** The top level of an agent's merge patch: known fields only, none of those that cannot change. */
export function checkAgentPatch(patch: unknown): Record<string, unknown> {
  return checkPatchFields(patch, EDITABLE_AGENT_FIELDS, READ_ONLY_AGENT_FIELDS);
}

export function agentDefinition(agent: Agent): AgentDefinition {
  return pickDefinition(withDefaults(agent));
}

/**
 * The agent's definition with the patch merged in, checked by the same rules as a create: a removed (`null`)
 * optional field takes its default (`instructions` "", `tools` [], `maxSteps` 10), a removed required one is a 400.
 */
export function mergeAgentPatch(agent: Agent, patch: Record<string, unknown>): AgentDefinition {
  const merged = applyMergePatch(agentDefinition(agent), patch) as Record<string, unknown>;
  const { outputSchema = null, ...rest } = merged;
  // A free-form field is checked by checkAgentDefinition, as in a create.
  const schema = outputSchema as Record<string, unknown> | null;
  return pickDefinition({ ...validateAs(CreateAgentDto, rest), outputSchema: schema });
}
