import type { Agent } from '../../agents/agent';
import type { StartAgentRun } from '../../agents/agent-run/agent-run.commands';
import type { RunTools } from '../agent-tree/run-tools';

/**
 * The claim of a run of this agent by this executor: the agent's tools missing now, and those whose MCP server is
 * away (offered to the model, their calls failing), are its warnings.
 */
export function claimOf(agent: Agent | null, executorId: string, tools: RunTools): Omit<StartAgentRun, 'type'> {
  const { tools: offered, missing } = agent ? tools.forAgent(agent) : { tools: [], missing: [] };
  const away = offered.filter((tool) => tool.unavailableReason !== undefined);
  return {
    executorId,
    warnings: [
      ...missing.map((id) => `The tool "${id}" is not available now; the run went on without it`),
      ...away.map((tool) => `The tool "${tool.id}" is not available now (${tool.unavailableReason}); its calls fail`),
    ],
    agentVersion: agent?.version,
    ...(agent?.outputSchema && { outputSchema: agent.outputSchema }),
  };
}
