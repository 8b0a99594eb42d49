import { ApiProperty } from '@nestjs/swagger';
import { CURSOR, JSON_VALUE, NAME_LENGTH, PAGE_ITEMS, RUN_ID, TIME, idField } from '../http/openapi/fields';
import { DATASET_TARGETS, MAX_DATASET_ITEMS } from './dataset';

/** The shapes the dataset routes answer with, for the OpenAPI document. */

export const DESCRIPTION_LENGTH = 1000;
/** An item's input, expected answer and metadata together, as JSON. */
export const MAX_ITEM_BYTES = 64 * 1024;

export class DatasetSchema {
  @ApiProperty(idField('dataset', 'dataset_01JDQC1C2D3E4F5G6H7J8K9M0N'))
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'support questions' })
  name: string;

  @ApiProperty({ maxLength: DESCRIPTION_LENGTH })
  description: string;

  @ApiProperty({ enum: DATASET_TARGETS })
  target: string;

  @ApiProperty({ enum: ['active', 'archived'], description: 'An archived dataset takes no more changes.' })
  status: string;

  @ApiProperty({ minimum: 1, description: 'Each item added or removed makes the next version (1 when created).' })
  version: number;

  @ApiProperty({ minimum: 0, maximum: MAX_DATASET_ITEMS })
  itemCount: number;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty(TIME)
  updatedAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  archivedAt: string | null;
}

export class DatasetListSchema {
  @ApiProperty({ type: [DatasetSchema], maxItems: PAGE_ITEMS })
  datasets: DatasetSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

export class DatasetItemSchema {
  @ApiProperty(idField('dsitem', 'dsitem_01JDQC1C2D3E4F5G6H7J8K9M0P'))
  id: string;

  @ApiProperty(idField('dataset'))
  datasetId: string;

  @ApiProperty({ ...JSON_VALUE, description: "An agent item's `{task, context}`, or a workflow trigger's input." })
  input: unknown;

  @ApiProperty({ ...JSON_VALUE, description: 'The answer expected; null: none.' })
  expected: unknown;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata: Record<string, unknown>;

  @ApiProperty({
    ...RUN_ID,
    nullable: true,
    description: 'The run it was made from; null for an item given by hand.',
  })
  sourceRunId: string | null;

  @ApiProperty({ minimum: 2, description: "The dataset's version that added it." })
  addedInVersion: number;

  @ApiProperty(TIME)
  createdAt: string;
}

export class DatasetItemListSchema {
  @ApiProperty({ type: [DatasetItemSchema], maxItems: PAGE_ITEMS })
  items: DatasetItemSchema[];

  @ApiProperty({ minimum: 1, description: "The dataset's version these are the items of." })
  version: number;

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
