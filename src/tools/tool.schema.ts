import { ApiProperty } from '@nestjs/swagger';

export class ToolDefinitionSchema {
  @ApiProperty({ example: 'current_time' })
  id: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'JSON Schema of the input.' })
  inputSchema: Record<string, unknown>;

  @ApiProperty({ description: 'False while its MCP server is refused, away, or has not connected yet.' })
  available: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why a call cannot be made now, naming the MCP server; null while it can.',
    example: null,
  })
  unavailableReason: string | null;
}

export class ToolListSchema {
  @ApiProperty({ type: [ToolDefinitionSchema] })
  tools: ToolDefinitionSchema[];
}
