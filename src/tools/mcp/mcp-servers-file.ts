import { readFileSync } from 'node:fs';
import { z } from 'zod';

export type McpServerConfig =
  | { name: string; transport: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { name: string; transport: 'http'; url: string; headers?: Record<string, string> };

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
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL' }),
  headers: stringMap.optional(),
  disabled: z.boolean().optional(),
});

const serversFile = z.object({
  mcpServers: z.record(
    z.string(),
    z.union([stdioServer, httpServer], { error: 'a server has either "command" (stdio) or "url" (Streamable HTTP)' }),
  ),
});

/** Reads `MCP_SERVERS_FILE`; a missing or malformed file throws an error naming the variable and the file. */
export function readMcpServersFile(path: string): McpServerConfig[] {
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
    .map(([name, server]) =>
      'command' in server
        ? { name, transport: 'stdio', command: server.command, args: server.args, env: server.env, cwd: server.cwd }
        : { name, transport: 'http', url: server.url, headers: server.headers },
    );
}
