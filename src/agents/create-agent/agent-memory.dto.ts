import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { Optional } from '../../http/validation';

/** The most thread messages a run may see. */
export const MAX_MEMORY = 1000;
/** The most memory items a run may be given. */
export const MAX_RECALLED = 20;

export class WorkingMemoryDto {
  /** Free-form JSON, checked as a JSON Schema by checkAgentDefinition. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A JSON Schema (`"type": "object"` at its root) the document must match. Default: any object.',
  })
  @FreeFormObject({ message: 'memory.working.schema must be a JSON Schema object' })
  @Optional()
  schema?: Record<string, unknown>;
}

export class AgentRecallDto {
  @ApiProperty({ minimum: 1, maximum: MAX_RECALLED, example: 5, description: 'At most this many items.' })
  @Max(MAX_RECALLED)
  @Min(1)
  @IsInt({ message: 'memory.recall.limit must be an integer' })
  @IsDefined({ message: 'memory.recall.limit is required' })
  limit: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1000,
    description: 'Only items scoring at least this (BM25). Default: 0.',
  })
  @Max(1000)
  @Min(0)
  @IsNumber({}, { message: 'memory.recall.minScore must be a number' })
  @Optional()
  minScore?: number;
}

export class AgentMemoryDto {
  @ApiProperty({ minimum: 0, maximum: MAX_MEMORY, description: "The thread's last messages a run sees." })
  @Max(MAX_MEMORY)
  @Min(0)
  @IsInt({ message: 'memory.maxMessages must be an integer' })
  @IsDefined({ message: 'memory.maxMessages is required' })
  maxMessages: number;

  @ApiPropertyOptional({
    maxLength: 500,
    example: 'users/{{context.userId}}',
    description:
      "The memory namespace of the agent's runs: a template over the run's context, filled in when a run starts. Default: none.",
  })
  @MaxLength(500)
  @IsString({ message: 'memory.namespace must be a string' })
  @Optional()
  namespace?: string;

  @ApiPropertyOptional({
    type: () => AgentRecallDto,
    description: 'Before each run, the items of the namespace that best match the task are given to the model.',
  })
  @ValidateNested()
  @Type(() => AgentRecallDto)
  @IsObject({ message: 'memory.recall must be an object' })
  @Optional()
  recall?: AgentRecallDto;

  @ApiPropertyOptional({
    description: 'The model gets `remember`, `recall` and `forget` tools on the namespace. Default: false.',
  })
  @IsBoolean({ message: 'memory.tools must be true or false' })
  @Optional()
  tools?: boolean;

  @ApiPropertyOptional({
    type: () => WorkingMemoryDto,
    description:
      'On a thread: one JSON document the model sees at the start of every turn and updates with update_working_memory.',
  })
  @ValidateNested()
  @Type(() => WorkingMemoryDto)
  @IsObject({ message: 'memory.working must be an object' })
  @Optional()
  working?: WorkingMemoryDto;

  @ApiPropertyOptional({
    description:
      "On a thread: the messages that fall out of the maxMessages window are folded into a running summary (written by the agent's model) that the model sees before the window. Default: false.",
  })
  @IsBoolean({ message: 'memory.summarize must be true or false' })
  @Optional()
  summarize?: boolean;
}
