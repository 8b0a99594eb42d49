import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_USAGE_GROUPS } from './usage.read-model';

export class UsageTotalsSchema {
  @ApiProperty({ description: 'Agent runs that ended in the window, whatever their ending.', minimum: 0 })
  runs: number;

  @ApiProperty({ minimum: 0 })
  inputTokens: number;

  @ApiProperty({ minimum: 0 })
  outputTokens: number;

  @ApiProperty({ description: 'US dollars, for the runs whose model has a price.', minimum: 0, example: 0.0123 })
  costUsd: number;

  @ApiProperty({
    description: 'Runs that used tokens of a model without a price; their cost is not in `costUsd`.',
    minimum: 0,
  })
  unpricedRuns: number;
}

export class UsageGroupSchema extends UsageTotalsSchema {
  @ApiProperty({
    description: 'The agent id, the model (`provider/model`) or the day (`YYYY-MM-DD`, UTC), after `groupBy`.',
    maxLength: 300,
    example: '2026-11-27',
  })
  key: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 200,
    nullable: true,
    example: 'researcher',
    description:
      "Grouped by agent only: the agent's name as it is now (a renamed agent's runs show under its new name); null when no agent has the id (runs recorded before endings named their agent).",
  })
  agentName?: string | null;
}

export class UsageReportSchema {
  @ApiProperty({
    type: String,
    format: 'date-time',
    maxLength: 24,
    nullable: true,
    description: 'The start of the window as counted (on the hour, UTC); null: from the first run.',
  })
  from: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    maxLength: 24,
    description: 'The end of the window as counted (on the hour, UTC, excluded).',
  })
  to: string;

  @ApiProperty({ enum: ['agent', 'model', 'day'], nullable: true })
  groupBy: 'agent' | 'model' | 'day' | null;

  @ApiProperty({ type: UsageTotalsSchema })
  totals: UsageTotalsSchema;

  @ApiProperty({
    type: [UsageGroupSchema],
    maxItems: MAX_USAGE_GROUPS,
    description: `Empty without \`groupBy\`. Days in time order; agents and models by cost, then by runs. At most ${MAX_USAGE_GROUPS}.`,
  })
  groups: UsageGroupSchema[];
}
