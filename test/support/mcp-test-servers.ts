import { mkdtempSync, writeFileSync } from 'node:fs';
import { IncomingHttpHeaders, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpTestServer } from './mcp-test-server';

/** One entry of an `MCP_SERVERS_FILE`. */
export type McpServerEntry =
  | { command: string; args?: string[]; env?: Record<string, string> }
  | { url: string; type?: string; headers?: Record<string, string> };

export const MCP_TEST_SERVER_SCRIPT = join(__dirname, 'mcp-test-server.js');

/** The test server over stdio, as a child process of whoever connects (it has an `exit` tool). */
export function stdioMcpTestServer(): McpServerEntry {
  return { command: process.execPath, args: [MCP_TEST_SERVER_SCRIPT] };
}

export interface HttpMcpTestServer {
  url: string;
  entry: McpServerEntry;
  /** The headers of every request it was sent, in order. */
  headers: IncomingHttpHeaders[];
  /** Stops answering: connections are cut and the port is closed. */
  close(): Promise<void>;
}

/** The test server over Streamable HTTP, in this process on 127.0.0.1 (stateless: one server per request). */
export async function startHttpMcpTestServer(): Promise<HttpMcpTestServer> {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer((request, response) => {
    headers.push(request.headers);
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    const server = createMcpTestServer({ name: 'http-test-server' });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => void transport.close().then(() => server.close()));
    server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    entry: { url },
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** Writes `{"mcpServers": servers}` to a new temporary folder and answers the file's path, for `MCP_SERVERS_FILE`. */
export function writeMcpServersFile(servers: Record<string, McpServerEntry>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'mcp-servers-')), 'mcp-servers.json');
  writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  return path;
}

export interface McpTestServers {
  /** An `MCP_SERVERS_FILE` listing `local` (stdio) and `remote` (Streamable HTTP). */
  file: string;
  remote: HttpMcpTestServer;
  close(): Promise<void>;
}

/**
 * Both test servers and a servers file naming them, e.g. `loadToolsConfig({ MCP_SERVERS_FILE: servers.file,
 * MCP_ALLOWED_HOSTS: '127.0.0.1' })` (the remote one is on loopback, which the address rules refuse otherwise).
 */
export async function startMcpTestServers(): Promise<McpTestServers> {
  const remote = await startHttpMcpTestServer();
  const file = writeMcpServersFile({ local: stdioMcpTestServer(), remote: remote.entry });
  return { file, remote, close: () => remote.close() };
}
