import { integer, oneOf } from '../shared/env';
import { group, integerVariable } from '../shared/settings';
import { parseAllowedHosts } from './allowed-hosts';
import { MIB } from './units';

export const TOOLS_CONFIG = Symbol('ToolsConfig');

export interface ToolsConfig {
  /** Hosts `http_get` may fetch from: `host` (any port) or `host:port`; empty: no `http_get` tool. */
  httpAllowedHosts: string[];
  /**
   * Whether `http_get` may connect to loopback, private, link-local (cloud metadata) and unique-local addresses from
   * any allowed host; otherwise only from hosts listed as IP literals.
   */
  httpAllowPrivate: boolean;
  /** Bodies longer than this are cut here (the result says `truncated: true`). */
  httpMaxBytes: number;
  /** Upper bound on one `http_get` call, redirects and body included. */
  httpTimeoutMs: number;
  /** JSON file of MCP servers in the usual `{"mcpServers": {...}}` shape; unset: no MCP tools. */
  mcpServersFile?: string;
  /** Hosts of remote MCP servers that may be at loopback, private or link-local addresses: `host` or `host:port`. */
  mcpAllowedHosts: string[];
  /** Upper bound on one call of an MCP tool. */
  mcpCallTimeoutMs: number;
}

/** Reads the tool settings from the environment; a bad value throws an error naming the variable. */
export function loadToolsConfig(env: NodeJS.ProcessEnv = process.env): ToolsConfig {
  const mcpServersFile = env.MCP_SERVERS_FILE?.trim();
  return {
    httpAllowedHosts: parseAllowedHosts(env.HTTP_TOOL_ALLOWED_HOSTS, 'HTTP_TOOL_ALLOWED_HOSTS'),
    httpAllowPrivate: oneOf(env, 'HTTP_TOOL_ALLOW_PRIVATE', ['true', 'false'] as const, 'false') === 'true',
    httpMaxBytes: integer(env, 'HTTP_TOOL_MAX_BYTES', MIB, 1, 100 * MIB),
    httpTimeoutMs: integer(env, 'HTTP_TOOL_TIMEOUT_MS', 10_000, 1, 600_000),
    mcpAllowedHosts: parseAllowedHosts(env.MCP_ALLOWED_HOSTS, 'MCP_ALLOWED_HOSTS'),
    mcpCallTimeoutMs: integer(env, 'MCP_CALL_TIMEOUT_MS', 60_000, 1, 3_600_000),
    ...(mcpServersFile ? { mcpServersFile } : {}),
  };
}

/** The tool settings as `docs/configuration.md` lists them. */
export const TOOLS_SETTINGS = group(loadToolsConfig, [
  {
    name: 'HTTP_TOOL_ALLOWED_HOSTS',
    meaning:
      'Comma-separated hosts the `http_get` tool may fetch from (`host` for any port, `host:port`, `[::1]:port`). A name must resolve to public addresses only; a loopback, private or link-local address is reached only through its IP literal listed here (or with `HTTP_TOOL_ALLOW_PRIVATE`). Unset: there is no `http_get` tool.',
  },
  {
    name: 'HTTP_TOOL_ALLOW_PRIVATE',
    default: 'false',
    meaning:
      '`true`: names in `HTTP_TOOL_ALLOWED_HOSTS` may resolve to loopback, private, link-local (cloud metadata) and unique-local addresses too.',
  },
  integerVariable(
    'HTTP_TOOL_MAX_BYTES',
    MIB,
    1,
    100 * MIB,
    '`http_get` cuts longer bodies here (and says `truncated: true`).',
  ),
  integerVariable(
    'HTTP_TOOL_TIMEOUT_MS',
    10_000,
    1,
    600_000,
    'Upper bound on one `http_get` call, redirects and body included.',
  ),
  {
    name: 'MCP_SERVERS_FILE',
    meaning:
      'A JSON file of Model Context Protocol servers whose tools agents may use (see [Tools](api.md#tools)). A bad file, or a `${NAME}` in it that names an unset variable, stops the start.',
  },
  {
    name: 'MCP_ALLOWED_HOSTS',
    meaning:
      'Comma-separated hosts (`host`, `host:port`, `[::1]:port`) of remote MCP servers that may be at loopback, private or link-local addresses. Any other remote server must resolve to public addresses only, checked at each connection (see [Security](security.md)).',
  },
  integerVariable(
    'MCP_CALL_TIMEOUT_MS',
    60_000,
    1,
    3_600_000,
    'Upper bound on one call of an MCP tool; a call that takes longer is a tool error.',
  ),
]);
