import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiQuery } from '@nestjs/swagger';

export class EventMetadataSchema {
  @ApiProperty({ type: String, nullable: true })
  correlationId: string | null;

  @ApiProperty({ type: String, nullable: true })
  causationId: string | null;

  @ApiProperty({ example: 1 })
  schemaVersion: number;
}

/** An event as subscribers see it. */
export class EventEnvelopeSchema {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: '1042', description: 'Global position: opaque and increasing; pass it back as `after`.' })
  position: string;

  @ApiProperty({ example: 'WorkflowTriggered' })
  type: string;

  @ApiProperty({ example: 'workflow-wf_01JDQ9N4Z8V7W6X5Y4T3S2R1QP' })
  stream: string;

  @ApiProperty({ example: '3', description: '0-based index of the event in its stream.' })
  revision: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  data: Record<string, unknown>;

  @ApiProperty({ type: EventMetadataSchema })
  metadata: EventMetadataSchema;

  @ApiProperty({ format: 'date-time' })
  recordedAt: string;
}

export class EventPageSchema {
  @ApiProperty({ type: [EventEnvelopeSchema] })
  events: EventEnvelopeSchema[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `after` for the next page: a position for the log, a revision for a history.',
  })
  nextAfter: string | null;
}

/** The paging parameters of an event page. */
export function ApiEventPaging(after: string): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'after', required: false, description: after }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } }),
  );
}
