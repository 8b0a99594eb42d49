import { Settings, flag } from '../shared/settings';

/** Which of the other protocols the service also speaks besides its HTTP API (docs/protocols.md). */
export interface ProtocolsConfig {
  /** `/mcp`: the service as an MCP server, each agent and workflow a tool. */
  mcpServerEnabled: boolean;
}

/** The protocol settings as `docs/configuration.md` lists them. */
export const PROTOCOL_SETTINGS = {
  mcpServerEnabled: flag(
    'MCP_SERVER_ENABLED',
    true,
    'Whether `/mcp` serves the agents and workflows as the tools of an MCP server (Streamable HTTP; see [Protocols](protocols.md)). `false`: `/mcp` is a `404`.',
  ),
} satisfies Settings;
