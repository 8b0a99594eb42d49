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
import { assignModelNames } from './model-names';
import { RunnableTool, ToolDefinition } from './tool';
import { TOOLS_CONFIG, ToolsConfig } from '../config/tools-config';

export const TOOL_REGISTRY_OPTIONS = Symbol('ToolRegistryOptions');

/** Knobs for tests: MCP timings and where the registry logs. */
export interface ToolRegistryOptions {
  mcp?: Partial<McpConnectionOptions>;
  logger?: LoggerService;
}

/** Every tool a run may call: the built-in ones and those of the MCP servers connected now. */
@Injectable()
export class ToolRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly builtIn: ExecutableTool[];
  private mcpServers: McpServerConnection[] = [];
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

  /** Reads `MCP_SERVERS_FILE` (a bad file stops the start) and connects to every server listed, in parallel. */
  async onModuleInit(): Promise<void> {
    if (!this.config.mcpServersFile) return;
    const servers = readMcpServersFile(this.config.mcpServersFile);
    // The MCP SDK is loaded only when servers are configured: it takes a noticeable part of the start otherwise.
    const { McpServerConnection, DEFAULT_MCP_CONNECTION_OPTIONS } = await import('./mcp/mcp-server-connection');
    const options = { ...DEFAULT_MCP_CONNECTION_OPTIONS, ...this.options.mcp };
    this.mcpServers = servers.map((server) => new McpServerConnection(server, options, this.logger));
    await Promise.all(this.mcpServers.map((server) => server.start()));
  }

  /** Closes every MCP client; stdio servers' processes end with them. */
  async onApplicationShutdown(): Promise<void> {
    const servers = this.mcpServers;
    this.mcpServers = [];
    await Promise.all(servers.map((server) => server.close()));
  }

  /** Sorted by id. */
  list(): ToolDefinition[] {
    return [...this.available().values()]
      .map(({ id, description, inputSchema }) => ({ id, description, inputSchema }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  isKnown(id: string): boolean {
    return this.available().has(id);
  }

  /**
   * The tools for one run, each with a model name unique within it; `missing` are the ids not available now.
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
      const tool = available.get(id) ?? others(id);
      if (tool) found.push(tool);
      else missing.push(id);
    }
    const names = assignModelNames(found.map((tool) => tool.id));
    return { tools: found.map((tool, index) => ({ ...tool, modelName: names[index] })), missing };
  }

  private available(): Map<string, ExecutableTool> {
    const tools = [...this.builtIn, ...this.mcpServers.flatMap((server) => server.listTools())];
    return new Map(tools.map((tool) => [tool.id, tool]));
  }
}
