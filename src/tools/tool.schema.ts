import { ApiProperty } from '@nestjs/swagger';

export class ToolDefinitionSchema {
  @ApiProperty({ example: 'current_time' })
  id: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the input.' })
  inputSchema: Record<string, unknown>;
}

export class ToolListSchema {
  @ApiProperty({ type: [ToolDefinitionSchema] })
  tools: ToolDefinitionSchema[];
}
