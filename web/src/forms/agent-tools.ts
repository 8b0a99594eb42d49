/** An agent's `tools` may name another agent, or the agent itself, as `agent:<name>`: a call starts a child run. */
const PREFIX = 'agent:';

/** The agent a tool id names, or undefined for a built-in or MCP tool. */
export function agentNamedBy(toolId: string): string | undefined {
  return toolId.startsWith(PREFIX) ? toolId.slice(PREFIX.length) : undefined;
}

export function agentToolId(name: string): string {
  return `${PREFIX}${name}`;
}

/** The names of the agents that tools name, in their order. */
export function subAgentNames(tools: string[]): string[] {
  return tools.map(agentNamedBy).filter((name): name is string => name !== undefined);
}
