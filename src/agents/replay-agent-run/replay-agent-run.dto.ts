import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { NOT_BLANK, Optional } from '../../http/validation';

/** What a replay changes: the task, the context, or neither (the recorded run's are used). */
export class ReplayAgentRunDto {
  @ApiPropertyOptional({ maxLength: 100_000, description: "The task to run instead. Default: the replayed run's." })
  @MaxLength(100_000)
  @Matches(NOT_BLANK, { message: 'task must not be empty' })
  @IsString({ message: 'task must be a string' })
  @Optional()
  task?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "Free-form JSON the model gets with the task, instead of the replayed run's. Default: the replayed run's.",
  })
  @FreeFormObject({ message: 'context must be an object' })
  @Optional()
  context?: Record<string, unknown>;
}
