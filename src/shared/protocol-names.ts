/**
 * How the other protocols name an agent or a workflow, shared by the service and the console (which shows them).
 * MCP tool names are letters, digits, `_`, `-` and `.`, at most 128 characters: a name that is not one keeps its
 * letters that are, and a short hash of the whole name, so that it stays the same and unique (agent names are).
 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** `researcher` → `agent_researcher`; `Ask me` → `agent_Ask_me_1f3a9c07`. */
export function agentToolName(agentName: string): string {
  return toolName('agent', agentName);
}

/** `digest` → `workflow_digest` (a second workflow of the same name gets a hash of its id: see the MCP catalogue). */
export function workflowToolName(workflowName: string, disambiguator?: string): string {
  return toolName('workflow', workflowName, disambiguator);
}

/** Where an agent is reached over A2A: `/a2a/{agentName}`, its card below it (`/.well-known/agent-card.json`). */
export function a2aPath(agentName: string): string {
  return `/a2a/${encodeURIComponent(agentName)}`;
}

function toolName(prefix: string, name: string, disambiguator?: string): string {
  const plain = `${prefix}_${name}`;
  if (TOOL_NAME.test(plain) && disambiguator === undefined) return plain;
  const hash = fnv1a(disambiguator ?? name);
  const kept = name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '');
  return `${prefix}_${kept.slice(0, 128 - prefix.length - hash.length - 2)}${kept ? '_' : ''}${hash}`;
}

/** The 32-bit FNV-1a hash of the text's UTF-16 code units, as 8 hex digits: short, stable, the same everywhere. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
