/**
 * An agent's `handoffs` name the agents it may hand the conversation to. Each is a name (shorthand for
 * `{agent: name, input: "all"}`) or `{agent, input}`: what the next agent is sent of the conversation so far.
 */
export const HANDOFF_INPUTS = ['all', 'last_user', 'summary'] as const;
export type HandoffInput = (typeof HANDOFF_INPUTS)[number];

export type HandoffSpec = string | { agent: string; input?: HandoffInput };

/** A handoff with its defaults filled in. */
export interface Handoff {
  agent: string;
  input: HandoffInput;
}

export function handoffOf(spec: HandoffSpec): Handoff {
  return typeof spec === 'string' ? { agent: spec, input: 'all' } : { agent: spec.agent, input: spec.input ?? 'all' };
}

/** A handoff as a tool id: `transfer_to:<name>` (the model sees `transfer_to_<name>`). */
const TOOL_PREFIX = 'transfer_to:';

export function handoffToolId(agent: string): string {
  return `${TOOL_PREFIX}${agent}`;
}

/** The agent a handoff tool id hands to, or undefined for another tool. */
export function agentHandedToBy(toolId: string): string | undefined {
  return toolId.startsWith(TOOL_PREFIX) ? toolId.slice(TOOL_PREFIX.length) : undefined;
}

/** At most this many handoffs per agent. */
export const MAX_HANDOFFS = 10;
