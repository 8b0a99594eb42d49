import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ToolListSchema } from './tool.schema';
import { ToolRegistry } from './tool-registry';

@ApiTags('tools')
@Controller('v1/tools')
export class ToolsController {
  constructor(private readonly registry: ToolRegistry) {}

  @ApiOperation({ summary: 'List the tools agents may use' })
  @ApiResponse({ status: 200, type: ToolListSchema })
  @Get()
  list() {
    return { tools: this.registry.list() };
  }
}
