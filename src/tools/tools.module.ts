import { DynamicModule, Module } from '@nestjs/common';
import { TOOL_REGISTRY_OPTIONS, ToolRegistry, ToolRegistryOptions } from './tool-registry';
import { TOOLS_CONFIG, ToolsConfig } from '../config/tools-config';
import { ToolsController } from './tools.controller';

/** The tool registry (built-in and MCP tools) and `GET /v1/tools`; needs the global `Clock` of the core module. */
@Module({})
export class ToolsModule {
  static forRoot(config: ToolsConfig, options: ToolRegistryOptions = {}): DynamicModule {
    return {
      module: ToolsModule,
      global: true,
      providers: [
        { provide: TOOLS_CONFIG, useValue: config },
        { provide: TOOL_REGISTRY_OPTIONS, useValue: options },
        ToolRegistry,
      ],
      controllers: [ToolsController],
      exports: [ToolRegistry],
    };
  }
}
