import { ApiProperty } from '@nestjs/swagger';
import { JSON_VALUE, TIME, idField } from '../http/openapi/fields';

/** The shapes the signal routes answer with, for the OpenAPI document. */

export class SignalDeliverySchema {
  @ApiProperty(idField('wfrun'))
  workflowRunId: string;

  @ApiProperty({ maxLength: 64, description: 'The id of the wait step the signal ended.' })
  step: string;
}

export class SignalSchema {
  @ApiProperty(idField('signal'))
  id: string;

  @ApiProperty({ maxLength: 200 })
  name: string;

  @ApiProperty({ type: String, maxLength: 200, nullable: true })
  key: string | null;

  @ApiProperty({ ...JSON_VALUE, description: "The signal's data: the output of each step it ends." })
  data: unknown;

  @ApiProperty(TIME)
  sentAt: string;

  @ApiProperty({
    ...TIME,
    description: 'Until when it is kept for a wait that begins later, had it reached no run (SIGNAL_RETENTION_MS).',
  })
  expiresAt: string;

  @ApiProperty({
    type: [SignalDeliverySchema],
    maxItems: 100_000,
    description:
      'The waiting steps it reached: every step waiting for its name (and key) when it was sent, or the one wait that took it later.',
  })
  delivered: SignalDeliverySchema[];
}
