import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
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
}
