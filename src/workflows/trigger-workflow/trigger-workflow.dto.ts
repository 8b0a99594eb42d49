import { ApiPropertyOptional } from '@nestjs/swagger';
import { FreeFormObject } from '../../http/free-form-json';

export class TriggerWorkflowDto {
  /** Free-form JSON, stored as received. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { topic: 'cron' },
    description: 'Free-form JSON the steps read as {{input.…}}. Default: {}.',
  })
  @FreeFormObject({ message: 'input must be an object' })
  input: Record<string, unknown> = {};
}
