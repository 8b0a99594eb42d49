import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RemoteMcpServerConfig } from './mcp-servers-file';
import { RemoteAddressPolicy } from './remote-address-policy';

/** Which transport a remote server was connected with, as the log names it. */
export type RemoteTransportKind = 'Streamable HTTP' | 'HTTP+SSE';

/**
 * Connects a new client (made by `newClient`) to a remote server, after checking its address. A server of type `http`
 * is tried with Streamable HTTP first; when it answers that first POST with a 4xx (a server of the older HTTP+SSE
 * transport has no POST route there: 404 or 405), a new client is connected with `SSEClientTransport`, as the MCP
 * specification's backwards compatibility and the SDK's own example do. Type `sse` goes straight to HTTP+SSE.
 */
export async function connectRemote(
  server: RemoteMcpServerConfig,
  policy: RemoteAddressPolicy,
  newClient: () => Client,
  timeout: number,
): Promise<{ client: Client; kind: RemoteTransportKind }> {
  const url = new URL(server.url);
  await policy.check(url);
  const options = { requestInit: { headers: server.headers }, fetch: policy.fetchFor(url) };
  if (server.transport === 'http') {
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(url, options), { timeout });
      return { client, kind: 'Streamable HTTP' };
    } catch (error) {
      await client.close().catch(() => undefined);
      if (!answeredWith4xx(error)) throw error;
    }
  }
  const client = newClient();
  try {
    await client.connect(new SSEClientTransport(url, options), { timeout });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, kind: 'HTTP+SSE' };
}

function answeredWith4xx(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500;
}
