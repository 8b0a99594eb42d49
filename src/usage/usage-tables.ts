import type Database from 'better-sqlite3';

/**
 * `usage_by_hour` and `usage_by_day`: ended runs summed by the hour (UTC) they ended in, or its day, their agent and
 * their model. A query reads these sums, never the runs: whole days from the daily sums, the hours at the window's
 * ends from the hourly ones, so its cost grows with days × agents × models, not with the number of runs.
 */
export function createUsageTables(db: Database.Database): void {
  db.exec(usageSumsTable('hour') + usageSumsTable('day'));
}

/** One table of the sums, by `period`: the two hold the same columns and differ only in how long a period is. */
function usageSumsTable(period: 'hour' | 'day'): string {
  return `
    CREATE TABLE IF NOT EXISTS usage_by_${period} (
      ${period} TEXT NOT NULL, agent_id TEXT NOT NULL, model TEXT NOT NULL,
      runs INTEGER NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
      cost_usd REAL NOT NULL, unpriced_runs INTEGER NOT NULL,
      PRIMARY KEY (${period}, agent_id, model)
    ) WITHOUT ROWID;`;
}
