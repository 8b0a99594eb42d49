import { LoggerService } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Redaction } from '../../shared/redaction';
import { errorMessage } from '../error-message';
import { ExecutableTool, ToolFailure } from '../executable-tool';
import { McpServerConfig } from './mcp-servers-file';
import { toolResultValue } from './mcp-tool-result';
import { RemoteAddressPolicy, refusalIn } from './remote-address-policy';
import { connectRemote } from './remote-transport';

export interface McpConnectionOptions {
  /** Bound on connecting and listing tools. */
  connectTimeoutMs: number;
  /** First wait before reconnecting; doubles after each failure up to `retryMaxDelayMs`. */
  retryMinDelayMs: number;
  retryMaxDelayMs: number;
  /** Bound on one tool call (`MCP_CALL_TIMEOUT_MS`). */
  callTimeoutMs: number;
}

export const DEFAULT_MCP_CONNECTION_OPTIONS: McpConnectionOptions = {
  connectTimeoutMs: 10_000,
  retryMinDelayMs: 1_000,
  retryMaxDelayMs: 60_000,
  callTimeoutMs: 60_000,
};

const CLIENT_INFO = { name: 'workflows-agents-service', version: '0.1.0' };

/** The input schema of a tool whose server has never told its own. */
const UNKNOWN_INPUT = { type: 'object' };

/**
 * One MCP server's client. When it cannot be reached, is refused by the address rules, or its connection closes or
 * fails, it retries in the background with exponential back-off (`retryMinDelayMs` doubling up to
 * `retryMaxDelayMs`), so a server that comes back is picked up again without a restart; only the first failure of a
 * streak is logged as a warning. Meanwhile the tools it had when last connected are still listed, as unavailable
 * with the reason, and a call of one is a tool error saying why. Every message about the server (logs, reasons, tool
 * errors) is cleared of the values its `${NAME}` references were filled in with.
 */
export class McpServerConnection {
  private client?: Client;
  private tools: ExecutableTool[] = [];
  /** The tools of the last connection, kept while the server is away. */
  private lastTools: Tool[] = [];
  private everConnected = false;
  /** Why the server is not connected now, as a sentence naming it. */
  private reason: string;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private connecting?: Promise<void>;
  private pinging = false;
  private closed = false;
  private readonly redaction: Redaction;

  constructor(
    private readonly server: McpServerConfig,
    private readonly options: McpConnectionOptions,
    private readonly logger: LoggerService,
    private readonly remote?: RemoteAddressPolicy,
  ) {
    this.redaction = new Redaction(server.transport === 'stdio' ? [] : (server.secrets ?? []));
    this.reason = `MCP server "${this.name}" has not connected yet`;
  }

  get name(): string {
    return this.server.name;
  }

  /** Connects once, never throws: a failure is logged and retried later. */
  start(): Promise<void> {
    this.connecting = this.connect();
    return this.connecting;
  }

  /** Its tools: callable while connected, else those of its last connection, each failing with the reason. */
  listTools(): ExecutableTool[] {
    if (this.client) return this.tools;
    return this.lastTools.map((tool) => this.unavailable(tool.name, describe(tool), tool.inputSchema));
  }

  /** Why it is not connected now, or undefined while it is. */
  unavailableReason(): string | undefined {
    return this.client ? undefined : this.reason;
  }

  /** True until a first connection: its tools are not known yet. */
  neverConnected(): boolean {
    return !this.everConnected;
  }

  /** A tool of a server that has never connected: any name, failing with the reason when called. */
  standIn(toolName: string): ExecutableTool {
    return this.unavailable(toolName, `A tool of the MCP server "${this.name}", which has not connected yet`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private newClient(): Client {
    const client: Client = new Client(CLIENT_INFO, {
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (error || !tools || this.client !== client) return;
            this.lastTools = tools;
            this.tools = tools.map((tool) => this.toExecutable(tool));
          },
        },
      },
    });
    return client;
  }

  private async connect(): Promise<void> {
    const timeout = this.options.connectTimeoutMs;
    let client: Client | undefined;
    try {
      const connected = await this.open(timeout);
      client = connected.client;
      const tools = await listAllTools(client, timeout);
      if (this.closed) return void (await client.close());
      client.onclose = () => this.lost(client!, 'the connection closed');
      client.onerror = () => this.checkAlive(client!);
      this.client = client;
      this.everConnected = true;
      this.lastTools = tools;
      this.tools = tools.map((tool) => this.toExecutable(tool));
      this.failures = 0;
      this.logger.log(`MCP server "${this.name}" connected${connected.over} with ${tools.length} tools`, 'Tools');
    } catch (error) {
      await client?.close().catch(() => undefined);
      const refused = refusalIn(error);
      this.retryLater(refused ? `is refused: ${refused}` : `cannot be reached: ${errorMessage(error)}`);
    }
  }

  private async open(timeout: number): Promise<{ client: Client; over: string }> {
    const server = this.server;
    if (server.transport === 'stdio') {
      const client = this.newClient();
      const { command, args, env, cwd } = server;
      try {
        await client.connect(new StdioClientTransport({ command, args, env, cwd }), { timeout });
      } catch (error) {
        await client.close().catch(() => undefined);
        throw error;
      }
      return { client, over: '' };
    }
    const { client, kind } = await connectRemote(server, this.remote!, () => this.newClient(), timeout);
    return { client, over: ` over ${kind}` };
  }

  private toExecutable(tool: Tool): ExecutableTool {
    return {
      id: `mcp:${this.name}/${tool.name}`,
      description: describe(tool),
      inputSchema: tool.inputSchema,
      execute: (input, { signal }) => this.callTool(tool.name, input, signal),
    };
  }

  private unavailable(toolName: string, description: string, inputSchema = UNKNOWN_INPUT): ExecutableTool {
    return {
      id: `mcp:${this.name}/${toolName}`,
      description,
      inputSchema,
      unavailableReason: this.reason,
      execute: () => Promise.reject(new ToolFailure(`${this.reason}; the call was not made`)),
    };
  }

  private async callTool(name: string, input: unknown, signal: AbortSignal): Promise<unknown> {
    const client = this.client;
    if (!client) throw new ToolFailure(`${this.reason}; the call was not made`);
    if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
      throw new ToolFailure(`The input of an MCP tool must be an object`);
    }
    const timeout = this.options.callTimeoutMs;
    let result;
    try {
      const params = { name, arguments: (input ?? {}) as Record<string, unknown> };
      result = await client.callTool(params, undefined, { signal, timeout });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new ToolFailure(`MCP server "${this.name}" did not answer the call of "${name}" within ${timeout} ms`);
      }
      const message = this.redaction.apply(errorMessage(error));
      // A protocol error (unknown tool, bad params) leaves the connection usable; anything else is the transport.
      if (!(error instanceof McpError)) this.lost(client, message);
      throw new ToolFailure(`MCP server "${this.name}" failed: ${message}`);
    }
    return toolResultValue(result);
  }

  /** A transport error (a stream cut, a failed reconnect of it) may mean the server is gone: a ping tells. */
  private checkAlive(client: Client): void {
    if (this.pinging || this.client !== client) return;
    this.pinging = true;
    client
      .ping({ timeout: this.options.connectTimeoutMs })
      .catch((error: unknown) => this.lost(client, errorMessage(error)))
      .finally(() => (this.pinging = false));
  }

  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.tools = [];
    client.onclose = undefined;
    client.onerror = undefined;
    void client.close().catch(() => undefined);
    this.retryLater(`went away: ${reason}`);
  }

  private retryLater(reason: string): void {
    if (this.closed) return;
    this.reason = this.redaction.apply(`MCP server "${this.name}" ${reason}`);
    const delay = Math.min(this.options.retryMaxDelayMs, this.options.retryMinDelayMs * 2 ** this.failures);
    const message = `${this.reason}; its tools are unavailable, retrying in ${delay} ms`;
    if (this.failures === 0) this.logger.warn(message, 'Tools');
    else this.logger.debug?.(message, 'Tools');
    this.failures++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.connecting = this.connect();
    }, delay).unref();
  }
}

function describe(tool: Tool): string {
  return tool.description ?? tool.title ?? '';
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
