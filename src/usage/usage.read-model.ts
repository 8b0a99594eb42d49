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
const KEYS: Record<UsageGrouping, string> = { agent: 'agent_id', model: 'model', day: 'day' };
/** Days in time order; agents and models by cost, then by runs. */
const ORDERS: Record<UsageGrouping, string> = {
  agent: 'cost_usd DESC, runs DESC, key',
  model: 'cost_usd DESC, runs DESC, key',
  day: 'key',
};
const COLUMNS = 'agent_id, model, runs, input_tokens, output_tokens, cost_usd, unpriced_runs';
/** The window's rows: whole days from the daily sums, then the hours before and after them from the hourly ones. */
const WINDOW = `(
  SELECT day, ${COLUMNS} FROM usage_by_day WHERE day >= @fromDay AND day < @toDay
  UNION ALL
  SELECT substr(hour, 1, 10) AS day, ${COLUMNS} FROM usage_by_hour WHERE hour >= @fromHour AND hour < @headEnd
  UNION ALL
  SELECT substr(hour, 1, 10) AS day, ${COLUMNS} FROM usage_by_hour WHERE hour >= @tailStart AND hour < @toHour
)`;

/** The parts of a window of hours: its whole days, and the hours at each end. */
interface WindowParts {
  fromDay: string;
  toDay: string;
  fromHour: string;
  headEnd: string;
  tailStart: string;
  toHour: string;
}

function prepareStatements(db: Database.Database) {
  createUsageTables(db);
  const add = (table: string, bucket: string) =>
    db.prepare<[string, string, string, number, number, number, number]>(
      `INSERT INTO ${table} (${bucket}, agent_id, model, runs, input_tokens, output_tokens, cost_usd, unpriced_runs)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (${bucket}, agent_id, model) DO UPDATE SET runs = runs + 1,
         input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
         cost_usd = cost_usd + excluded.cost_usd, unpriced_runs = unpriced_runs + excluded.unpriced_runs`,
    );
  return {
    addHour: add('usage_by_hour', 'hour'),
    addDay: add('usage_by_day', 'day'),
    totals: db.prepare<[WindowParts], SumsRow>(`SELECT '' AS key, ${SUMS} FROM ${WINDOW}`),
    groups: Object.fromEntries(
      (Object.keys(KEYS) as UsageGrouping[]).map((by) => [
        by,
        db.prepare<[WindowParts], SumsRow>(
          `SELECT ${KEYS[by]} AS key, ${SUMS} FROM ${WINDOW} GROUP BY key ORDER BY ${ORDERS[by]} LIMIT ${MAX_USAGE_GROUPS}`,
        ),
      ]),
    ) as Record<UsageGrouping, Database.Statement<[WindowParts], SumsRow>>,
  };
}

/** `[fromHour, toHour)` as whole days and the hours at its ends (`YYYY-MM-DDTHH`, `YYYY-MM-DD`). */
export function windowParts(fromHour: string, toHour: string): WindowParts {
  const fromDay = fromHour.endsWith('T00') ? fromHour.slice(0, 10) : nextDay(fromHour.slice(0, 10));
  const toDay = toHour.slice(0, 10);
  if (fromDay >= toDay) return { fromDay, toDay: fromDay, fromHour, headEnd: toHour, tailStart: toHour, toHour };
  return { fromDay, toDay, fromHour, headEnd: `${fromDay}T00`, tailStart: `${toDay}T00`, toHour };
}

function nextDay(day: string): string {
  if (day === '0000-01-01') return '0000-01-02';
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
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
    const hour = hourOf(endedAt);
    const sums = [agentId, model, inputTokens, outputTokens, usage?.costUsd ?? 0, unpriced] as const;
    this.statements.addHour.run(hour, ...sums);
    this.statements.addDay.run(hour.slice(0, 10), ...sums);
  }

  /** Sums over the hours from `fromHour` (included) to `toHour` (excluded), both `YYYY-MM-DDTHH`. */
  totals(fromHour: string, toHour: string): UsageTotals {
    return totalsOf(this.statements.totals.get(windowParts(fromHour, toHour))!);
  }

  groups(by: UsageGrouping, fromHour: string, toHour: string): Array<UsageTotals & { key: string }> {
    const rows = this.statements.groups[by].all(windowParts(fromHour, toHour));
    return rows.map((row) => ({ key: row.key, ...totalsOf(row) }));
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
