import { Controller, Get } from '@nestjs/common';
import { ToolRegistry } from './tool-registry';

@Controller('v1/tools')
export class ToolsController {
  constructor(private readonly registry: ToolRegistry) {}

  @Get()
  list() {
    return { tools: this.registry.list() };
  }
}
