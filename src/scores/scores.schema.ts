import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NAME_LENGTH, idField } from '../http/openapi/fields';
import { MAX_SCORE_GROUPS } from './scores.read-model';

export class ScoreGroupSchema {
  @ApiProperty(idField('agent'))
  agentId: string;

  @ApiProperty({ type: String, nullable: true, maxLength: NAME_LENGTH, description: "The agent's name now." })
  agentName: string | null;

  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiPropertyOptional({ maxLength: 10, example: '2026-11-01', description: 'With `groupBy=day`: the day (UTC).' })
  day?: string;

  @ApiProperty({ minimum: 1, description: 'How many scores.' })
  count: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  mean: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  min: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  max: number;
}

export class ScoresReportSchema {
  @ApiProperty({ type: String, nullable: true, maxLength: 10 })
  from: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 10 })
  to: string | null;

  @ApiProperty({ type: String, nullable: true, enum: ['day'] })
  groupBy: 'day' | null;

  @ApiProperty({ type: [ScoreGroupSchema], maxItems: MAX_SCORE_GROUPS })
  scores: ScoreGroupSchema[];
}
