import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR, JSON_VALUE, PAGE_ITEMS, TIME, idField } from '../http/openapi/fields';

/** The shapes the memory routes answer with, for the OpenAPI document. */

export class MemorySourceSchema {
  @ApiPropertyOptional({ ...idField('agentrun'), description: 'The run that wrote it, when a run did.' })
  runId?: string;

  @ApiProperty({ format: 'uuid', maxLength: 36, description: 'The event that put this version (see /v1/events).' })
  eventId: string;
}

export class MemoryItemSchema {
  @ApiProperty({ maxLength: 808, example: 'users/ada' })
  namespace: string;

  @ApiProperty({ maxLength: 200, example: 'preferences' })
  key: string;

  @ApiProperty({ ...JSON_VALUE })
  value: unknown;

  @ApiProperty({ description: '1 for the first put, one more for each put or removal since.' })
  version: number;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty(TIME)
  updatedAt: string;

  @ApiProperty({ ...TIME, nullable: true, description: 'When it is gone from reads and search; null: never.' })
  expiresAt: string | null;

  @ApiProperty({ type: MemorySourceSchema })
  source: MemorySourceSchema;
}

export class MemoryListSchema {
  @ApiProperty({ type: [MemoryItemSchema], maxItems: PAGE_ITEMS })
  items: MemoryItemSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

export class MemoryVersionSchema extends MemoryItemSchema {
  @ApiProperty({
    type: String,
    enum: ['deleted', 'expired'],
    nullable: true,
    description: 'A version that removed the item (its value null); null for a put.',
  })
  removed: string | null;
}

export class MemoryHistorySchema {
  @ApiProperty({ type: [MemoryVersionSchema], maxItems: PAGE_ITEMS })
  versions: MemoryVersionSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

export class MemorySearchHitSchema extends MemoryItemSchema {
  @ApiProperty({
    description:
      'How well it matches, higher is better: BM25 for `keyword`, the cosine similarity (at most 1) for `semantic`, the sum of 1/(60 + rank) over both lists for `hybrid`.',
  })
  score: number;
}

export class MemorySearchSchema {
  @ApiProperty({ type: [MemorySearchHitSchema], maxItems: PAGE_ITEMS })
  items: MemorySearchHitSchema[];
}

export class MemoryNamespaceSchema {
  @ApiProperty({ maxLength: 808, example: 'users/ada' })
  namespace: string;

  @ApiProperty({ description: 'The items it holds now.' })
  items: number;
}

export class MemoryNamespaceListSchema {
  @ApiProperty({ type: [MemoryNamespaceSchema], maxItems: PAGE_ITEMS })
  namespaces: MemoryNamespaceSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
