import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSON_VALUE, NAME_LENGTH, RUN_ID, TEXT_LENGTH, idField } from '../http/openapi/fields';
import { RUN_STATUSES } from '../domain/run';
import { MAX_COMPARED_ITEMS } from './experiment-comparison';
import { EXPERIMENT_MODES } from './experiment';

/** The shape of a comparison of two experiments, for the OpenAPI document. */

class ComparedExperimentSchema {
  @ApiProperty(idField('experiment'))
  id: string;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'The agent it ran on (absent for a workflow).' })
  agent?: string;

  @ApiPropertyOptional({ minimum: 1 })
  agentVersion?: number;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'The workflow it ran on (absent for an agent).' })
  workflow?: string;

  @ApiPropertyOptional({ minimum: 1 })
  workflowVersion?: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The change of the agent's or workflow's definition it tried, never saved; null: none.",
  })
  overrides: Record<string, unknown> | null;

  @ApiProperty({ enum: EXPERIMENT_MODES })
  mode: string;

  @ApiProperty({ minimum: 1 })
  datasetVersion: number;
}

class ComparedScorerSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Its mean in base, over the items both scored.' })
  base: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Its mean in head, over the same items.' })
  head: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'head less base: below 0, it got worse.' })
  change: number | null;
}

class ComparedCountsSchema {
  @ApiProperty({ minimum: 0, description: 'Items both experiments scored.' })
  compared: number;

  @ApiProperty({ minimum: 0 })
  worse: number;

  @ApiProperty({ minimum: 0 })
  better: number;

  @ApiProperty({ minimum: 0 })
  same: number;
}

class ComparedScoreSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  score: number;

  @ApiProperty({ required: false, maxLength: 10_000 })
  reason?: string;
}

class ComparedSideSchema {
  @ApiProperty(RUN_ID)
  runId: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: String, nullable: true, maxLength: TEXT_LENGTH })
  output: string | null;

  @ApiProperty({ type: [ComparedScoreSchema], maxItems: 20 })
  scores: ComparedScoreSchema[];
}

class ComparedItemSchema {
  @ApiProperty(idField('dsitem'))
  itemId: string;

  @ApiProperty({ ...JSON_VALUE, description: "The item's input." })
  input: unknown;

  @ApiProperty({ type: ComparedSideSchema })
  base: ComparedSideSchema;

  @ApiProperty({ type: ComparedSideSchema })
  head: ComparedSideSchema;

  @ApiProperty({ minimum: -1, maximum: 1, description: "The mean change of the item's scores: below 0, worse." })
  change: number;
}

export class ExperimentComparisonSchema {
  @ApiProperty({ type: ComparedExperimentSchema })
  base: ComparedExperimentSchema;

  @ApiProperty({ type: ComparedExperimentSchema })
  head: ComparedExperimentSchema;

  @ApiProperty({ type: [ComparedScorerSchema], maxItems: 20 })
  scorers: ComparedScorerSchema[];

  @ApiProperty({ type: ComparedCountsSchema })
  items: ComparedCountsSchema;

  @ApiProperty({
    type: [ComparedItemSchema],
    maxItems: MAX_COMPARED_ITEMS,
    description: `The items whose score changed, worst first (at most ${MAX_COMPARED_ITEMS}).`,
  })
  changed: ComparedItemSchema[];
}
