import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength } from 'class-validator';
import { FreeFormObject } from '../../http/free-form-json';
import { Optional } from '../../http/validation';

export const REPLAY_VERSIONS = ['original', 'current'] as const;
export type ReplayVersion = (typeof REPLAY_VERSIONS)[number];

export class ReplayWorkflowRunDto {
  @ApiProperty({
    maxLength: 64,
    example: 'write',
    description: 'The step to run again, by id or position; it and every step that needs it run again.',
  })
  @MaxLength(64)
  @IsString({ message: 'fromStep must be a step id' })
  @IsDefined({ message: 'fromStep is required' })
  fromStep: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The replay's input. Default: the input of the run replayed.",
  })
  @FreeFormObject({ message: 'input must be an object' })
  input?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: REPLAY_VERSIONS,
    description:
      '`original` (default): the workflow as the run replayed ran it; `current`: the workflow as it is now (steps are matched by id).',
  })
  @IsIn(REPLAY_VERSIONS, { message: 'version must be "original" or "current"' })
  @Optional()
  version?: ReplayVersion;
}
