import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { Optional } from '../../http/validation';
import { SUBJECT_ID, SUBJECT_ID_RULE } from '../../event-store/sealing/sealed-fields';
import { FreeFormObject } from '../../http/free-form-json';
import { idField } from '../../http/openapi/fields';

export class CreateThreadDto {
  @ApiProperty({ ...idField('agent'), description: 'The agent the conversation is with.' })
  @Matches(/^agent_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'agentId must be an agent id (agent_ and a ULID)' })
  @IsString()
  @IsDefined({ message: 'agentId is required' })
  agentId: string;

  /** Free-form JSON, stored as received. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { customer: 'ada' },
    description: 'Free-form JSON kept with the thread. Default: {}.',
  })
  @FreeFormObject({ message: 'metadata must be an object' })
  metadata: Record<string, unknown> = {};

  @ApiPropertyOptional({
    maxLength: 200,
    pattern: SUBJECT_ID.source,
    example: 'user-42',
    description:
      "The person the conversation is about: its messages, and its runs' tasks and answers, are sealed under that subject's key (with `DATA_KEY_SECRET`), and go when it is forgotten (`DELETE /v1/subjects/{subjectId}`).",
  })
  @Matches(SUBJECT_ID, { message: `subjectId must be ${SUBJECT_ID_RULE}` })
  @IsString({ message: 'subjectId must be a string' })
  @Optional()
  subjectId?: string;
}
