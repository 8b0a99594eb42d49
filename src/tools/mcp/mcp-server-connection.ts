import { LoggerService } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../error-message';
import { ExecutableTool, ToolFailure } from '../executable-tool';
import { McpServerConfig } from './mcp-servers-file';
import { toolResultValue } from './mcp-tool-result';

export interface McpConnectionOptions {
  /** Bound on connecting and listing tools. */
  connectTimeoutMs: number;
  /** First wait before reconnecting; doubles after each failure up to `retryMaxDelayMs`. */
  retryMinDelayMs: number;
  retryMaxDelayMs: number;
}

export const DEFAULT_MCP_CONNECTION_OPTIONS: McpConnectionOptions = {
  connectTimeoutMs: 10_000,
  retryMinDelayMs: 1_000,
  retryMaxDelayMs: 60_000,
};

const CLIENT_INFO = { name: 'workflows-agents-service', version: '0.1.0' };

/**
 * One MCP server's client. Its tools are listed only while it is connected. When it cannot be reached,
 * or its connection closes or fails, it retries in the background with exponential back-off
 * (`retryMinDelayMs` doubling up to `retryMaxDelayMs`), so a server that comes back is picked up again
 * without a restart; only the first failure of a streak is logged as a warning.
 */
export class McpServerConnection {
  private client?: Client;
  private tools: ExecutableTool[] = [];
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private connecting?: Promise<void>;
  private closed = false;

  constructor(
    private readonly server: McpServerConfig,
    private readonly options: McpConnectionOptions,
    private readonly logger: LoggerService,
  ) {}

  get name(): string {
    return this.server.name;
  }

  /** Connects once, never throws: a failure is logged and retried later. */
  start(): Promise<void> {
    this.connecting = this.connect();
    return this.connecting;
  }

  listTools(): ExecutableTool[] {
    return this.client ? this.tools : [];
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(CLIENT_INFO, {
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (!error && tools && this.client === client) this.tools = tools.map((tool) => this.toExecutable(tool));
          },
        },
      },
    });
    try {
      const timeout = this.options.connectTimeoutMs;
      await client.connect(this.transport(), { timeout });
      const tools = await listAllTools(client, timeout);
      if (this.closed) return void (await client.close());
      client.onclose = () => this.lost(client, 'the connection closed');
      this.client = client;
      this.tools = tools.map((tool) => this.toExecutable(tool));
      this.failures = 0;
      this.logger.log(`MCP server "${this.name}" connected with ${tools.length} tools`, 'Tools');
    } catch (error) {
      await client.close().catch(() => undefined);
      this.retryLater(`cannot be reached: ${errorMessage(error)}`);
    }
  }

  private transport(): Transport {
    const server = this.server;
    if (server.transport === 'http') {
      return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
    }
    return new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: server.cwd });
  }

  private toExecutable(tool: Tool): ExecutableTool {
    return {
      id: `mcp:${this.name}/${tool.name}`,
      description: tool.description ?? tool.title ?? '',
      inputSchema: tool.inputSchema,
      execute: (input, { signal }) => this.callTool(tool.name, input, signal),
    };
  }

  private async callTool(name: string, input: unknown, signal: AbortSignal): Promise<unknown> {
    const client = this.client;
    if (!client) throw new ToolFailure(`MCP server "${this.name}" is not connected`);
    if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
      throw new ToolFailure(`The input of an MCP tool must be an object`);
    }
    let result;
    try {
      result = await client.callTool({ name, arguments: (input ?? {}) as Record<string, unknown> }, undefined, {
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      // A protocol error (unknown tool, bad params, timeout) leaves the connection usable; anything else is the transport.
      if (!(error instanceof McpError)) this.lost(client, errorMessage(error));
      throw new ToolFailure(`MCP server "${this.name}" failed: ${errorMessage(error)}`);
    }
    return toolResultValue(result);
  }

  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.tools = [];
    client.onclose = undefined;
    void client.close().catch(() => undefined);
    this.retryLater(`went away: ${reason}`);
  }

  private retryLater(reason: string): void {
    if (this.closed) return;
    const delay = Math.min(this.options.retryMaxDelayMs, this.options.retryMinDelayMs * 2 ** this.failures);
    const message = `MCP server "${this.name}" ${reason}; its tools are left out, retrying in ${delay} ms`;
    if (this.failures === 0) this.logger.warn(message, 'Tools');
    else this.logger.debug?.(message, 'Tools');
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.connecting = this.connect();
    }, delay).unref();
  }
}

async function listAllTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
