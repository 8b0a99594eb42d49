/** An agent's `tools` may name another agent (or itself) as `agent:<name>`: a call starts a child run of it. */
const PREFIX = 'agent:';

/** The agent a tool id names, or undefined for a tool that is not an agent. */
export function agentNamedBy(toolId: string): string | undefined {
  return toolId.startsWith(PREFIX) ? toolId.slice(PREFIX.length) : undefined;
}

export function agentToolId(name: string): string {
  return `${PREFIX}${name}`;
}
