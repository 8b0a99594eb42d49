import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NAME_LENGTH, TIME, idField } from '../http/openapi/fields';
import { RunErrorSchema } from '../http/openapi/run.schema';
import { UsageSchema } from '../http/openapi/usage.schema';

/** Parts of an agent run's shape, for the OpenAPI document: its models, its scores, and how an experiment ran it. */

export class ModelAttemptSchema {
  @ApiProperty({ maxLength: NAME_LENGTH, example: 'openai/gpt-4o-mini' })
  model: string;

  @ApiProperty({ type: UsageSchema, description: 'The tokens its calls reported, priced at this model.' })
  usage: UsageSchema;

  @ApiPropertyOptional({ type: RunErrorSchema, description: 'Why the run left this model (or failed on it).' })
  error?: RunErrorSchema;
}

export class RunScoreSchema {
  @ApiProperty({ maxLength: NAME_LENGTH })
  scorer: string;

  @ApiProperty(idField('scorer'))
  scorerId: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  score: number;

  @ApiPropertyOptional({ maxLength: 10_000 })
  reason?: string;

  @ApiPropertyOptional({ ...idField('agentrun'), description: "A judge's score: the judge's own run." })
  judgeRunId?: string;

  @ApiProperty(TIME)
  at: string;
}

export class RunTrialSchema {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The merge patch of the agent's definition the run tried, never saved; null: none.",
  })
  overrides: Record<string, unknown> | null;

  @ApiProperty({
    ...idField('agentrun'),
    nullable: true,
    description: 'The run whose tool results were given back for the same calls (`mode: recorded`); null: tools ran.',
  })
  recordedFrom: string | null;
}

export class RecalledItemSchema {
  @ApiProperty({ maxLength: 808, example: 'users/ada' })
  namespace: string;

  @ApiProperty({ maxLength: 200, example: 'preferences' })
  key: string;

  @ApiProperty({ description: 'The version it was given (GET …/history shows it).' })
  version: number;

  @ApiProperty({ description: 'How well it matched the task (BM25; higher is better).' })
  score: number;
}
