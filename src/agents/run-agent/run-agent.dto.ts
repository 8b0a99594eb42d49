import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '../../http/validation';
import { NOT_BLANK } from '../create-agent/create-agent.dto';

export class RunAgentDto {
  @ApiProperty({ maxLength: 100_000, example: 'Summarise this paper' })
  @MaxLength(100_000)
  @Matches(NOT_BLANK, { message: 'task must not be empty' })
  @IsString()
  @IsDefined({ message: 'task is required' })
  task: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    default: {},
    example: { url: 'https://arxiv.org/abs/1234.5678' },
  })
  @IsObject({ message: 'context must be an object' })
  @Optional()
  context: Record<string, unknown> = {};
}
