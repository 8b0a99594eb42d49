import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CURSOR,
  JSON_VALUE,
  NAME_LENGTH,
  PAGE_ITEMS,
  RUN_ID,
  TEXT_LENGTH,
  TIME,
  idField,
} from '../http/openapi/fields';
import { RunErrorSchema } from '../http/openapi/run.schema';
import { UsageSchema } from '../http/openapi/usage.schema';
import { RUN_STATUSES } from '../domain/run';
import { EXPERIMENT_MODES } from './experiment';

/** The shapes the experiment routes answer with, for the OpenAPI document. */

class ExperimentDatasetSchema {
  @ApiProperty(idField('dataset'))
  id: string;

  @ApiProperty({ maxLength: NAME_LENGTH })
  name: string;

  @ApiProperty({ minimum: 1, description: 'The version whose items are run.' })
  version: number;

  @ApiProperty({ minimum: 0 })
  itemCount: number;
}

/**
 * What an experiment runs on: an agent target has `agent`, `agentId` and `agentVersion`; a workflow target
 * `workflow`, `workflowId` and `workflowVersion`.
 */
class ExperimentTargetSchema {
  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'An agent target: the agent.' })
  agent?: string;

  @ApiPropertyOptional(idField('agent'))
  agentId?: string;

  @ApiPropertyOptional({
    minimum: 1,
    description:
      "The agent's version every item runs on: `target.version` as asked, else its version when the experiment was created.",
  })
  agentVersion?: number;

  @ApiPropertyOptional({ maxLength: NAME_LENGTH, description: 'A workflow target: the workflow.' })
  workflow?: string;

  @ApiPropertyOptional(idField('wf'))
  workflowId?: string;

  @ApiPropertyOptional({
    minimum: 1,
    description:
      "The workflow's version whose steps every item runs: `target.version` as asked, else its version when the experiment was created.",
  })
  workflowVersion?: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The merge patch of the agent's or workflow's definition the items run with, never saved; null: none.",
  })
  overrides: Record<string, unknown> | null;
}

class RecordedCountsSchema {
  @ApiProperty({ minimum: 0, description: 'Tool calls given the result the recorded run got.' })
  hits: number;

  @ApiProperty({ minimum: 0, description: 'Tool calls the recorded run did not make: the tool was called.' })
  misses: number;
}

class ScorerMeanSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1, description: 'Null: no score given yet.' })
  mean: number | null;

  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1 })
  threshold: number | null;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Whether the mean reached the threshold; null without one.',
  })
  passed: boolean | null;
}

class ExperimentItemCountsSchema {
  @ApiProperty({ minimum: 0 })
  total: number;

  @ApiProperty({ minimum: 0 })
  succeeded: number;

  @ApiProperty({ minimum: 0, description: 'Runs that failed or were cancelled: each scores 0.' })
  failed: number;
}

class DurationsSchema {
  @ApiProperty({ type: Number, nullable: true })
  p50: number | null;

  @ApiProperty({ type: Number, nullable: true })
  p95: number | null;
}

export class ExperimentSummarySchema {
  @ApiProperty({ type: [ScorerMeanSchema], maxItems: 20 })
  scorers: ScorerMeanSchema[];

  @ApiProperty({ type: Boolean, nullable: true })
  passed: boolean | null;

  @ApiProperty({ type: ExperimentItemCountsSchema })
  items: ExperimentItemCountsSchema;

  @ApiProperty({ type: UsageSchema, description: "The items' runs' tokens and cost together." })
  usage: UsageSchema;

  @ApiProperty({ type: DurationsSchema, description: "The items' runs' durations in milliseconds." })
  durationMs: DurationsSchema;

  @ApiProperty({ minimum: 0, description: "The model requests of the items' runs." })
  modelCalls: number;

  @ApiProperty({
    type: RecordedCountsSchema,
    nullable: true,
    description: '`recorded` mode only (else null): the tool calls of items made from runs, replayed or not.',
  })
  recorded: RecordedCountsSchema | null;
}

class ExperimentProgressSchema {
  @ApiProperty({ minimum: 0 })
  total: number;

  @ApiProperty({ minimum: 0 })
  started: number;

  @ApiProperty({ minimum: 0 })
  scored: number;
}

export class ExperimentSchema {
  @ApiProperty(idField('experiment', 'experiment_01JDQE1C2D3E4F5G6H7J8K9M0N'))
  id: string;

  @ApiProperty({ enum: ['queued', 'running', 'succeeded'], description: '`succeeded`: every item run and scored.' })
  status: string;

  @ApiProperty({ type: ExperimentDatasetSchema })
  dataset: ExperimentDatasetSchema;

  @ApiProperty({ type: ExperimentTargetSchema })
  target: ExperimentTargetSchema;

  @ApiProperty({ type: 'array', items: { type: 'string', maxLength: NAME_LENGTH }, maxItems: 20 })
  scorers: string[];

  @ApiProperty({ minimum: 1, maximum: 50 })
  concurrency: number;

  @ApiProperty({ enum: EXPERIMENT_MODES })
  mode: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number', minimum: 0, maximum: 1 } })
  thresholds: Record<string, number>;

  @ApiProperty({ type: ExperimentProgressSchema })
  progress: ExperimentProgressSchema;

  @ApiProperty({
    type: Boolean,
    nullable: true,
    description: 'Null until it has succeeded, and without thresholds; false when a mean is below its threshold.',
  })
  passed: boolean | null;

  @ApiProperty({ type: ExperimentSummarySchema, description: 'As it stands; final once it has succeeded.' })
  summary: ExperimentSummarySchema;

  @ApiProperty(TIME)
  createdAt: string;

  @ApiProperty({ ...TIME, nullable: true })
  completedAt: string | null;
}

export class ExperimentListSchema {
  @ApiProperty({ type: [ExperimentSchema], maxItems: PAGE_ITEMS })
  experiments: ExperimentSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}

class ItemScoreSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  score: number;

  @ApiPropertyOptional({ maxLength: 10_000 })
  reason?: string;
}

export class ExperimentResultSchema {
  @ApiProperty(idField('dsitem'))
  itemId: string;

  @ApiProperty({ ...RUN_ID, description: "The item's run: an agent run, or a workflow run for a workflow dataset." })
  runId: string;

  @ApiProperty({ enum: RUN_STATUSES })
  status: string;

  @ApiProperty({ type: String, nullable: true, maxLength: TEXT_LENGTH, description: "The run's answer." })
  output: string | null;

  @ApiPropertyOptional({ ...JSON_VALUE })
  outputObject?: unknown;

  @ApiPropertyOptional({ type: RunErrorSchema })
  error?: RunErrorSchema;

  @ApiProperty({ type: [ItemScoreSchema], maxItems: 20 })
  scores: ItemScoreSchema[];

  @ApiProperty({ type: UsageSchema, nullable: true })
  usage: UsageSchema | null;

  @ApiProperty({ type: Number, nullable: true })
  durationMs: number | null;

  @ApiPropertyOptional({ minimum: 0, description: 'The model requests its run made.' })
  modelCalls?: number;

  @ApiPropertyOptional({
    type: RecordedCountsSchema,
    description: '`recorded` mode, an item made from a run: its tool calls replayed (hits) and run (misses).',
  })
  recorded?: RecordedCountsSchema;

  @ApiProperty(TIME)
  scoredAt: string;
}

export class ExperimentResultListSchema {
  @ApiProperty({ type: [ExperimentResultSchema], maxItems: PAGE_ITEMS })
  results: ExperimentResultSchema[];

  @ApiProperty({ ...CURSOR, nullable: true })
  nextCursor: string | null;
}
