import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiQuery } from '@nestjs/swagger';
import { PAGE_ITEMS, POSITION, TIME } from '../http/openapi/fields';

/** Ids the service makes (resource ids, request ids) name what caused an event. */
const CAUSE = { type: String, maxLength: 128, nullable: true };

export class EventMetadataSchema {
  @ApiProperty(CAUSE)
  correlationId: string | null;

  @ApiProperty(CAUSE)
  causationId: string | null;

  @ApiProperty({ example: 1 })
  schemaVersion: number;
}

/** An event as subscribers see it. */
export class EventEnvelopeSchema {
  @ApiProperty({ format: 'uuid', maxLength: 36 })
  id: string;

  @ApiProperty({
    ...POSITION,
    example: '1042',
    description: 'Global position: opaque and increasing; pass it back as `after`.',
  })
  position: string;

  @ApiProperty({ maxLength: 100, example: 'WorkflowTriggered' })
  type: string;

  @ApiProperty({ maxLength: 100, example: 'workflow-wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP' })
  stream: string;

  @ApiProperty({ ...POSITION, example: '3', description: '0-based index of the event in its stream.' })
  revision: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  data: Record<string, unknown>;

  @ApiProperty({ type: EventMetadataSchema })
  metadata: EventMetadataSchema;

  @ApiProperty(TIME)
  recordedAt: string;
}

export class EventPageSchema {
  @ApiProperty({ type: [EventEnvelopeSchema], maxItems: PAGE_ITEMS })
  events: EventEnvelopeSchema[];

  @ApiProperty({
    ...POSITION,
    nullable: true,
    description: 'Pass as `after` for the next page: a position for the log, a revision for a history.',
  })
  nextAfter: string | null;
}

/** A page of the log (`GET /v1/events`), forwards or backwards. */
export class EventLogPageSchema {
  @ApiProperty({ type: [EventEnvelopeSchema], maxItems: PAGE_ITEMS })
  events: EventEnvelopeSchema[];

  @ApiProperty({
    ...POSITION,
    nullable: true,
    required: false,
    description: 'Forwards: pass as `after` for the next page (where this read stopped, even when it found nothing).',
  })
  nextAfter?: string | null;

  @ApiProperty({
    ...POSITION,
    nullable: true,
    required: false,
    description: 'With `order=desc`: pass as `before` for the next, older page; null at the start of the log.',
  })
  nextBefore?: string | null;

  @ApiProperty({
    description:
      'Whether more events may follow in this direction now. A read looks at a bounded stretch of the log and ' +
      'ends once its events hold EVENTS_PAGE_MAX_BYTES, so a page can be short, or (filtered) empty, while `more` ' +
      'is true: follow the cursor.',
  })
  more: boolean;
}

/** The paging parameters of an event page. */
export function ApiEventPaging(after: string): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'after', required: false, description: after, schema: { type: 'string', maxLength: 20 } }),
    ApiQuery({
      name: 'limit',
      required: false,
      schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 200, default: 50 },
    }),
  );
}
