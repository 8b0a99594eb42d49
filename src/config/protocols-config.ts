import { Settings, flag } from '../shared/settings';

/** Which of the other protocols the service also speaks besides its HTTP API (docs/protocols.md). */
export interface ProtocolsConfig {
  /** `/mcp`: the service as an MCP server, each agent and workflow a tool. */
  mcpServerEnabled: boolean;
  /** `/a2a/{agentName}` and the agent cards: the service as an A2A server. */
  a2aServerEnabled: boolean;
}

/** The protocol settings as `docs/configuration.md` lists them. */
export const PROTOCOL_SETTINGS = {
  mcpServerEnabled: flag(
    'MCP_SERVER_ENABLED',
    true,
    'Whether `/mcp` serves the agents and workflows as the tools of an MCP server (Streamable HTTP; see [Protocols](protocols.md)). `false`: `/mcp` is a `404`.',
  ),
  a2aServerEnabled: flag(
    'A2A_SERVER_ENABLED',
    true,
    "Whether `/a2a/{agentName}` serves each active agent over A2A, with its card at `/a2a/{agentName}/.well-known/agent-card.json` and the service's at `/.well-known/agent-card.json` (see [Protocols](protocols.md)). `false`: those are `404`s.",
  ),
} satisfies Settings;
