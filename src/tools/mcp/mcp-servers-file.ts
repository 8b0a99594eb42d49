import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EnvironmentReferences } from './environment-references';

/**
 * A remote server's `transport` is `http` (Streamable HTTP, falling back to the older HTTP+SSE transport when the
 * server answers its first POST with a 4xx) or `sse` (HTTP+SSE only). `secrets` are the values its `${NAME}`
 * references were filled in with: they are taken out of every message about the server.
 */
export type McpServerConfig =
  | { name: string; transport: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | RemoteMcpServerConfig;

export interface RemoteMcpServerConfig {
  name: string;
  transport: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  secrets?: string[];
}

const stringMap = z.record(z.string(), z.string());

const stdioServer = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  disabled: z.boolean().optional(),
});

const httpServer = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
  url: z.string().min(1),
  headers: stringMap.optional(),
  disabled: z.boolean().optional(),
});

const serversFile = z.object({
  mcpServers: z.record(
    z.string(),
    z.union([stdioServer, httpServer], { error: 'a server has either "command" (stdio) or "url" (Streamable HTTP)' }),
  ),
});

/**
 * Reads `MCP_SERVERS_FILE`, filling in `${NAME}` in remote servers' `url` and `headers` from `env`; a missing or
 * malformed file, or a reference to an unset variable, throws an error naming the variable and the file.
 */
export function readMcpServersFile(path: string, env: NodeJS.ProcessEnv = process.env): McpServerConfig[] {
  const fail = (reason: string): never => {
    throw new Error(`MCP_SERVERS_FILE (${path}): ${reason}`);
  };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(error instanceof SyntaxError ? `not valid JSON: ${error.message}` : `cannot be read: ${String(error)}`);
  }
  const parsed = serversFile.safeParse(json);
  if (!parsed.success) fail(z.prettifyError(parsed.error).replace(/\n\s*/g, ' '));
  const servers = Object.entries(parsed.data!.mcpServers);
  for (const [name] of servers) {
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
      fail(`server name "${name}" may hold only letters, digits, "_", "." and "-"`);
    }
  }
  return servers
    .filter(([, server]) => !server.disabled)
    .map(([name, server]): McpServerConfig => {
      if ('command' in server) {
        return {
          name,
          transport: 'stdio',
          command: server.command,
          args: server.args,
          env: server.env,
          cwd: server.cwd,
        };
      }
      try {
        return remoteServer(name, server, new EnvironmentReferences(env));
      } catch (error) {
        return fail((error as Error).message);
      }
    });
}

function remoteServer(
  name: string,
  server: z.infer<typeof httpServer>,
  references: EnvironmentReferences,
): RemoteMcpServerConfig {
  const url = references.fill(server.url, `server "${name}": url`);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // The message quotes the url as written, without the values filled in.
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`server "${name}": url must be an http or https URL, not "${server.url}"`);
  }
  const headers = references.fillAll(server.headers, `server "${name}": headers`);
  const secrets = [...references.secrets];
  return {
    name,
    transport: server.type === 'sse' ? 'sse' : 'http',
    url,
    ...(headers && { headers }),
    ...(secrets.length > 0 && { secrets }),
  };
}
