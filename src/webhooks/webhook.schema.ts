import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR, PAGE_ITEMS, POSITION, TIME, idField } from '../http/openapi/fields';

/** The shapes the webhook routes answer with, for the OpenAPI document. */

export const URL_LENGTH = 2000;
export const DESCRIPTION_LENGTH = 1000;
export const MAX_EVENT_PATTERNS = 50;
const DELIVERY_ID = { type: String, maxLength: 36, pattern: '^msg_[0-9a-f]{32}$' } as const;

export class WebhookSchema {
  @ApiProperty(idField('whk', 'whk_01JDQB1C2D3E4F5G6H7J8K9M0N'))
  id: string;

  @ApiProperty({ maxLength: URL_LENGTH, example: 'https://example.com/hooks/workflows' })
  url: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 100 },
    maxItems: MAX_EVENT_PATTERNS,
    example: ['AgentRunSucceeded', 'WorkflowRun*'],
    description: 'Event types, or globs where `*` matches any characters.',
  })
  events: string[];

  @ApiProperty({ type: String, maxLength: DESCRIPTION_LENGTH, nullable: true })
  description: string | null;

  @ApiProperty({ description: 'Whether events are sent to it.' })
  enabled: boolean;

  @ApiProperty({
    type: String,
    maxLength: 200,
    nullable: true,
    description: 'Why the service disabled it (its deliveries failed for 24 h); null otherwise.',
  })
  disabledReason: string | null;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty(TIME)
  updatedAt: string;
}

export class WebhookWithSecretSchema extends WebhookSchema {
  @ApiPropertyOptional({
    maxLength: 100,
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'The signing secret (Standard Webhooks): shown once, here. Absent from a repeat with the same Idempotency-Key: it is stored nowhere in plain text (rotate-secret makes a new one).',
  })
  secret?: string;
}

export class WebhookListSchema {
  @ApiProperty({ type: [WebhookSchema], maxItems: PAGE_ITEMS })
  webhooks: WebhookSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  nextCursor: string | null;
}

export class DeliveryAttemptSchema {
  @ApiProperty({ ...DELIVERY_ID, description: 'The `webhook-id` header: the same for each attempt of one event.' })
  deliveryId: string;

  @ApiProperty({ format: 'uuid', maxLength: 36 })
  eventId: string;

  @ApiProperty({ maxLength: 100, example: 'AgentRunSucceeded' })
  eventType: string;

  @ApiProperty({ maxLength: 200 })
  eventStream: string;

  @ApiProperty(POSITION)
  eventRevision: string;

  @ApiProperty({ ...POSITION, description: "The event's position in the log." })
  position: string;

  @ApiProperty({ minimum: 1, description: 'The attempt at this event, from 1.' })
  attempt: number;

  @ApiProperty({ description: 'Sent again through `redeliver`.' })
  redelivery: boolean;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  status: string;

  @ApiProperty({ type: Number, nullable: true, minimum: 100, maximum: 599, description: "The receiver's status code." })
  statusCode: number | null;

  @ApiProperty({ minimum: 0 })
  durationMs: number;

  @ApiProperty({ type: String, maxLength: 600, nullable: true, description: 'Why it failed.' })
  error: string | null;

  @ApiProperty(TIME)
  attemptedAt: string;

  @ApiProperty({ ...TIME, nullable: true, description: 'When it is tried again; null if not.' })
  nextAttemptAt: string | null;
}

export class DeliveryAttemptListSchema {
  @ApiProperty({ type: [DeliveryAttemptSchema], maxItems: PAGE_ITEMS })
  attempts: DeliveryAttemptSchema[];

  @ApiProperty({ ...CURSOR, nullable: true, description: 'Pass as `cursor` for the next (older) page.' })
  nextCursor: string | null;
}

export { DELIVERY_ID };
