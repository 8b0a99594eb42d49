import { DynamicModule, Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ProtocolsConfig } from '../config/protocols-config';
import { WorkflowsModule } from '../workflows/workflows.module';
import { McpCatalogue } from './mcp/mcp-catalogue';
import { McpController } from './mcp/mcp.controller';
import { McpSessions } from './mcp/mcp-sessions';
import { McpToolCalls } from './mcp/mcp-tool-calls';

/**
 * The other protocols the service speaks, each a thin adapter over the runs the HTTP API starts: MCP at `/mcp`
 * (every agent and workflow a tool). They store nothing of their own: a call is a run, recorded as any run is.
 * A protocol turned off has no routes (a 404).
 */
@Module({})
export class ProtocolsModule {
  static forRoot(config: ProtocolsConfig): DynamicModule {
    return {
      module: ProtocolsModule,
      imports: [AgentsModule, WorkflowsModule],
      controllers: config.mcpServerEnabled ? [McpController] : [],
      providers: config.mcpServerEnabled ? [McpCatalogue, McpSessions, McpToolCalls] : [],
    };
  }
}
