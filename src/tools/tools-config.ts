import { integer, oneOf } from '../shared/env';

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
}

const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?$/;

/** Reads the tool settings from the environment; a bad value throws an error naming the variable. */
export function loadToolsConfig(env: NodeJS.ProcessEnv = process.env): ToolsConfig {
  const mcpServersFile = env.MCP_SERVERS_FILE?.trim();
  return {
    httpAllowedHosts: parseAllowedHosts(env.HTTP_TOOL_ALLOWED_HOSTS, 'HTTP_TOOL_ALLOWED_HOSTS'),
    httpAllowPrivate: oneOf(env, 'HTTP_TOOL_ALLOW_PRIVATE', ['true', 'false'] as const, 'false') === 'true',
    httpMaxBytes: integer(env, 'HTTP_TOOL_MAX_BYTES', 1024 * 1024, 1, 100 * 1024 * 1024),
    httpTimeoutMs: integer(env, 'HTTP_TOOL_TIMEOUT_MS', 10_000, 1, 600_000),
    ...(mcpServersFile ? { mcpServersFile } : {}),
  };
}

/** A comma-separated list of `host` or `host:port`; `variable` names it in the error. */
export function parseAllowedHosts(raw: string | undefined, variable: string): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const hosts = raw
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  for (const host of hosts) {
    const port = host.match(/:(\d+)$/)?.[1];
    if (!HOST_PATTERN.test(host) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new Error(
        `${variable} must be a comma-separated list of host names, each optionally with :port, not "${host}"`,
      );
    }
  }
  return hosts;
}
