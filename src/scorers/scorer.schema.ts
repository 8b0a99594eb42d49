import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CURSOR, JSON_VALUE, NAME_LENGTH, PAGE_ITEMS, TIME, idField } from '../http/openapi/fields';
import { SCORER_TYPES } from './scorer';

/** The shapes the scorer routes answer with, for the OpenAPI document. */

export const DESCRIPTION_LENGTH = 1000;
export const RUBRIC_LENGTH = 10_000;

export class ScorerSchema {
  @ApiProperty(idField('scorer', 'scorer_01JDQD1C2D3E4F5G6H7J8K9M0N'))
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH, example: 'mentions the refund policy' })
  name: string;

  @ApiProperty({ maxLength: DESCRIPTION_LENGTH })
  description: string;

  @ApiProperty({ enum: SCORER_TYPES })
  type: string;

  @ApiProperty({ enum: ['active', 'archived'] })
  status: string;

  @ApiPropertyOptional({ description: '`exact`, `contains`: whether case counts.' })
  caseSensitive?: boolean;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`json_schema`: the schema.' })
  schema?: Record<string, unknown>;

  @ApiPropertyOptional({ ...JSON_VALUE, description: '`rule`: the JSON Logic rule.' })
  rule?: unknown;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: '`judge`: the agent that judges.' })
  agent?: string;

  @ApiPropertyOptional({ maxLength: RUBRIC_LENGTH, description: '`judge`: what a good answer is.' })
  rubric?: string;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  archivedAt: string | null;
}

export class ScorerListSchema {
  @ApiProperty({ type: [ScorerSchema], maxItems: PAGE_ITEMS })
  scorers: ScorerSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

export class ScoreSchema {
  @ApiProperty({ maxLength: NAME_LENGTH, description: "The scorer's name." })
  scorer: string;

  @ApiProperty({ minimum: 0, maximum: 1, description: '0: worst; 1: best.' })
  score: number;

  @ApiPropertyOptional({ maxLength: 10_000, description: 'Why, when the scorer says.' })
  reason?: string;

  @ApiPropertyOptional({ ...idField('agentrun'), description: "`judge`: the judge's own run." })
  judgeRunId?: string;
}
