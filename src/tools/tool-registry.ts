import {
  Inject,
  Injectable,
  Logger,
  LoggerService,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { Clock } from '../shared/clock';
import { currentTimeTool } from './built-in/current-time.tool';
import { httpGetTool } from './built-in/http-get.tool';
import { ExecutableTool } from './executable-tool';
import type { McpConnectionOptions, McpServerConnection } from './mcp/mcp-server-connection';
import { readMcpServersFile } from './mcp/mcp-servers-file';
import type { RemoteAddressPolicy } from './mcp/remote-address-policy';
import { assignModelNames } from './model-names';
import { RunnableTool, ToolListing } from './tool';
import { TOOLS_CONFIG, ToolsConfig } from '../config/tools-config';

export const TOOL_REGISTRY_OPTIONS = Symbol('ToolRegistryOptions');

/** Knobs for tests: MCP timings, where the registry logs, and the environment `${NAME}` is read from. */
export interface ToolRegistryOptions {
  mcp?: Partial<McpConnectionOptions>;
  logger?: LoggerService;
  env?: NodeJS.ProcessEnv;
}

/** `mcp:<server>/<tool>`, with the server and the tool's name. */
const MCP_TOOL_ID = /^mcp:([^/]+)\/(.+)$/;

/** Every tool a run may call: the built-in ones and those of the MCP servers connected now. */
@Injectable()
export class ToolRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly builtIn: ExecutableTool[];
  private mcpServers: McpServerConnection[] = [];
  private remotePolicy?: RemoteAddressPolicy;
  private readonly logger: LoggerService;

  constructor(
    @Inject(TOOLS_CONFIG) private readonly config: ToolsConfig,
    clock: Clock,
    @Optional() @Inject(TOOL_REGISTRY_OPTIONS) private readonly options: ToolRegistryOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(ToolRegistry.name);
    this.builtIn = [currentTimeTool(clock)];
    if (config.httpAllowedHosts.length > 0) {
      this.builtIn.push(
        httpGetTool({
          allowedHosts: config.httpAllowedHosts,
          allowPrivate: config.httpAllowPrivate,
          maxBytes: config.httpMaxBytes,
          timeoutMs: config.httpTimeoutMs,
        }),
      );
    }
  }

  /**
   * Reads `MCP_SERVERS_FILE` (a bad file, or a `${NAME}` of an unset variable, stops the start) and connects to every
   * server listed, in parallel.
   */
  async onModuleInit(): Promise<void> {
    if (!this.config.mcpServersFile) return;
    const servers = readMcpServersFile(this.config.mcpServersFile, this.options.env ?? process.env);
    // The MCP SDK is loaded only when servers are configured: it takes a noticeable part of the start otherwise.
    const { McpServerConnection, DEFAULT_MCP_CONNECTION_OPTIONS } = await import('./mcp/mcp-server-connection');
    const { RemoteAddressPolicy } = await import('./mcp/remote-address-policy');
    const options = {
      ...DEFAULT_MCP_CONNECTION_OPTIONS,
      callTimeoutMs: this.config.mcpCallTimeoutMs,
      ...this.options.mcp,
    };
    const policy = (this.remotePolicy = new RemoteAddressPolicy(this.config.mcpAllowedHosts));
    this.mcpServers = servers.map((server) => new McpServerConnection(server, options, this.logger, policy));
    await Promise.all(this.mcpServers.map((server) => server.start()));
  }

  /** Closes every MCP client; stdio servers' processes end with them. */
  async onApplicationShutdown(): Promise<void> {
    const servers = this.mcpServers;
    this.mcpServers = [];
    await Promise.all(servers.map((server) => server.close()));
    await this.remotePolicy?.close();
  }

  /**
   * Sorted by id. The tools of an MCP server that is away are listed as unavailable, with the reason; a server that
   * has never connected is one entry, `mcp:<server>/*`, since its tools are not known yet.
   */
  list(): ToolListing[] {
    const listed: ToolListing[] = [...this.available().values()].map(
      ({ id, description, inputSchema, unavailableReason }) => ({
        id,
        description,
        inputSchema,
        available: unavailableReason === undefined,
        unavailableReason: unavailableReason ?? null,
      }),
    );
    for (const server of this.mcpServers.filter((s) => s.neverConnected())) {
      const { description, inputSchema } = server.standIn('*');
      const unavailableReason = server.unavailableReason() ?? null;
      listed.push({ id: `mcp:${server.name}/*`, description, inputSchema, available: false, unavailableReason });
    }
    return listed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** A tool listed now, or any tool of an MCP server that has never connected (its tools are not known yet). */
  isKnown(id: string): boolean {
    return this.available().has(id) || this.standIn(id) !== undefined;
  }

  /**
   * The tools for one run, each with a model name unique within it; `missing` are the ids it does not know now. A
   * tool of an MCP server that is away is among `tools`, with its `unavailableReason`: a call of it is a tool error.
   * `others` gives the tools the registry does not hold (other agents, as `agent:<name>`).
   */
  resolve(
    ids: string[],
    others: (id: string) => ExecutableTool | undefined = () => undefined,
  ): { tools: RunnableTool[]; missing: string[] } {
    const available = this.available();
    const found: ExecutableTool[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const tool = available.get(id) ?? others(id) ?? this.standIn(id);
      if (tool) found.push(tool);
      else missing.push(id);
    }
    const names = assignModelNames(found.map((tool) => tool.id));
    return { tools: found.map((tool, index) => ({ ...tool, modelName: names[index] })), missing };
  }

  /** A tool of a server that has never connected, whose call fails saying so. */
  private standIn(id: string): ExecutableTool | undefined {
    const [, serverName, toolName] = id.match(MCP_TOOL_ID) ?? [];
    if (toolName === undefined || toolName === '*') return undefined;
    return this.mcpServers.find((server) => server.name === serverName && server.neverConnected())?.standIn(toolName);
  }

  private available(): Map<string, ExecutableTool> {
    const tools = [...this.builtIn, ...this.mcpServers.flatMap((server) => server.listTools())];
    return new Map(tools.map((tool) => [tool.id, tool]));
  }
}
