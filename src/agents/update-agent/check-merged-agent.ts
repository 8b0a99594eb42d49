import type { AgentDefinition } from '../agent';
import { DefinitionChecks, checkAgentDefinition } from '../create-agent/agent-definition';

/**
 * Checks an agent's definition with a merge patch applied, as a create would, but only the fields the patch
 * changes (see checkAgentDefinition): an agent whose tool has gone can still change. Its name is always given, for
 * the checks that allow an agent to name itself.
 */
export function checkMergedAgent(
  next: AgentDefinition,
  patch: Record<string, unknown>,
  deps: DefinitionChecks,
): Promise<void> {
  const changed = <K extends keyof AgentDefinition>(key: K) => (key in patch ? next[key] : undefined);
  return checkAgentDefinition(
    {
      name: next.name,
      model: changed('model'),
      tools: changed('tools'),
      outputSchema: changed('outputSchema'),
      fallbackModels: changed('fallbackModels'),
      guardrails: changed('guardrails'),
      approvalRequired: changed('approvalRequired'),
      handoffs: changed('handoffs'),
      scorers: changed('scorers'),
    },
    deps,
  );
}
