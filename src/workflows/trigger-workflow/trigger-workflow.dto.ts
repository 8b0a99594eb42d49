import { ApiPropertyOptional } from '@nestjs/swagger';
import { FreeFormObject } from '../../http/free-form-json';
import { FastBodySchema } from '../../http/body-schema';

/** The fast path of POST /v1/workflows/{id}/trigger (see FastBodySchema): `input`, an object, or nothing. */
const TRIGGER_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: { input: { type: 'object' } },
} as const;

@FastBodySchema(TRIGGER_BODY)
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
