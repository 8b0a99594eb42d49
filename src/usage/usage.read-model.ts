import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import type { Usage } from '../domain/run';
import { READ_DATABASE } from '../read-models/read-database';
import { createUsageTables } from './usage-tables';

export type UsageGrouping = 'agent' | 'model' | 'day';

/** Groups an answer holds at most: the first ones in its order (27 years of days). */
export const MAX_USAGE_GROUPS = 10_000;

export interface UsageTotals {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  /** The cost of the runs whose model has a price. */
  costUsd: number;
  /** Runs that used tokens of a model without a price: their cost is not in `costUsd`. */
  unpricedRuns: number;
}

/** An ended run as usage counts it. */
export interface EndedRunUsage {
  agentId: string;
  model: string;
  endedAt: string;
  usage: Usage | null;
}

interface SumsRow {
  key: string;
  runs: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  unpriced_runs: number | null;
}

const SUMS = `sum(runs) AS runs, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(cost_usd) AS cost_usd, sum(unpriced_runs) AS unpriced_runs`;
const KEYS: Record<UsageGrouping, string> = { agent: 'agent_id', model: 'model', day: 'substr(hour, 1, 10)' };
/** Days in time order; agents and models by cost, then by runs. */
const ORDERS: Record<UsageGrouping, string> = {
  agent: 'cost_usd DESC, runs DESC, key',
  model: 'cost_usd DESC, runs DESC, key',
  day: 'key',
};

function prepareStatements(db: Database.Database) {
  createUsageTables(db);
  const window = 'WHERE hour >= ? AND hour < ?';
  return {
    add: db.prepare<[string, string, string, number, number, number, number]>(
      `INSERT INTO usage_by_hour (hour, agent_id, model, runs, input_tokens, output_tokens, cost_usd, unpriced_runs)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (hour, agent_id, model) DO UPDATE SET runs = runs + 1,
         input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
         cost_usd = cost_usd + excluded.cost_usd, unpriced_runs = unpriced_runs + excluded.unpriced_runs`,
    ),
    totals: db.prepare<[string, string], SumsRow>(`SELECT '' AS key, ${SUMS} FROM usage_by_hour ${window}`),
    groups: Object.fromEntries(
      (Object.keys(KEYS) as UsageGrouping[]).map((by) => [
        by,
        db.prepare<[string, string], SumsRow>(
          `SELECT ${KEYS[by]} AS key, ${SUMS} FROM usage_by_hour ${window} GROUP BY key ORDER BY ${ORDERS[by]} LIMIT ${MAX_USAGE_GROUPS}`,
        ),
      ]),
    ) as Record<UsageGrouping, Database.Statement<[string, string], SumsRow>>,
  };
}

/** `usage_by_hour`: written by UsageProjection, read by `GET /v1/usage`. */
@Injectable()
export class UsageReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  /** Rows are written as each event is applied: nothing to gather per batch. */
  batch(work: () => void): void {
    work();
  }

  runEnded({ agentId, model, endedAt, usage }: EndedRunUsage): void {
    const inputTokens = usage?.inputTokens ?? 0;
    const outputTokens = usage?.outputTokens ?? 0;
    const priced = usage?.costUsd !== undefined;
    const unpriced = !priced && inputTokens + outputTokens > 0 ? 1 : 0;
    this.statements.add.run(hourOf(endedAt), agentId, model, inputTokens, outputTokens, usage?.costUsd ?? 0, unpriced);
  }

  /** Sums over the hours from `fromHour` (included) to `toHour` (excluded), both `YYYY-MM-DDTHH`. */
  totals(fromHour: string, toHour: string): UsageTotals {
    return totalsOf(this.statements.totals.get(fromHour, toHour)!);
  }

  groups(by: UsageGrouping, fromHour: string, toHour: string): Array<UsageTotals & { key: string }> {
    return this.statements.groups[by].all(fromHour, toHour).map((row) => ({ key: row.key, ...totalsOf(row) }));
  }
}

/** `2026-11-27T07:45:00.000Z` → `2026-11-27T07`. */
export function hourOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 13);
}

function totalsOf(row: SumsRow): UsageTotals {
  return {
    runs: row.runs ?? 0,
    inputTokens: row.input_tokens ?? 0,
    outputTokens: row.output_tokens ?? 0,
    // Sums of floats: rounded to a millionth of a cent, as each run's cost is.
    costUsd: Math.round((row.cost_usd ?? 0) * 1e8) / 1e8,
    unpricedRuns: row.unpriced_runs ?? 0,
  };
}
