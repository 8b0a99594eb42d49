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
