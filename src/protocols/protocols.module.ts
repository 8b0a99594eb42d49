import { DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ProtocolsConfig } from '../config/protocols-config';
import { WorkflowsModule } from '../workflows/workflows.module';
import { A2aController } from './a2a/a2a.controller';
import { A2aEndpoint } from './a2a/a2a-endpoint';
import { A2aRuns } from './a2a/a2a-runs';
import { McpCatalogue } from './mcp/mcp-catalogue';
import { McpController } from './mcp/mcp.controller';
import { McpSessions } from './mcp/mcp-sessions';
import { McpToolCalls } from './mcp/mcp-tool-calls';

/**
 * The other protocols the service speaks, each a thin adapter over the runs the HTTP API starts: MCP at `/mcp`
 * (every agent and workflow a tool), and A2A at `/a2a/{agentName}` (a task is a run, a context a thread). They store nothing of their own: a call is a run, recorded as any run is.
 * A protocol turned off has no routes (a 404).
 */
@Module({})
export class ProtocolsModule {
  static forRoot(config: ProtocolsConfig): DynamicModule {
    return {
      module: ProtocolsModule,
      imports: [AgentsModule, WorkflowsModule],
      controllers: [
        ...(config.mcpServerEnabled ? [McpController] : []),
        ...(config.a2aServerEnabled ? [A2aController] : []),
      ],
      providers: [
        ...(config.mcpServerEnabled ? [McpCatalogue, McpSessions, McpToolCalls] : []),
        ...(config.a2aServerEnabled ? [A2aRuns, A2aEndpoint] : []),
      ],
    };
  }
}
