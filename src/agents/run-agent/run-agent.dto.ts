import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { idField } from '../../http/openapi/fields';
import { NOT_BLANK, Optional } from '../../http/validation';
import { OUTPUT_SCHEMA_FIELD } from '../create-agent/create-agent.dto';

/** A task to run: on an agent, or on a thread (whose agent runs it). */
export class RunTaskDto {
  @ApiProperty({ maxLength: 100_000, example: 'Summarise this paper' })
  @MaxLength(100_000)
  @Matches(NOT_BLANK, { message: 'task must not be empty' })
  @IsString()
  @IsDefined({ message: 'task is required' })
  task: string;

  /** Free-form JSON, stored as received. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { url: 'https://arxiv.org/abs/1234.5678' },
    description: 'Free-form JSON the model gets with the task. Default: {}.',
  })
  @FreeFormObject({ message: 'context must be an object' })
  context: Record<string, unknown> = {};

  /** Free-form JSON, checked as a JSON Schema by the controller. */
  @ApiPropertyOptional({
    ...OUTPUT_SCHEMA_FIELD,
    description: "The JSON Schema this run's answer must match, instead of the agent's. Default: the agent's.",
  })
  @FreeFormObject({ message: 'outputSchema must be a JSON Schema object' })
  outputSchema: Record<string, unknown> | null = null;
}

export class RunAgentDto extends RunTaskDto {
  @ApiPropertyOptional({
    ...idField('thread'),
    description: 'A thread of this agent: the run continues its conversation. Default: none (a one-off run).',
  })
  @Matches(/^thread_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'threadId must be a thread id (thread_ and a ULID)' })
  @IsString()
  @Optional()
  threadId?: string;
}
