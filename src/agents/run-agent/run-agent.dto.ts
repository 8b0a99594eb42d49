import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Matches, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { NOT_BLANK } from '../create-agent/create-agent.dto';

export class RunAgentDto {
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
}
