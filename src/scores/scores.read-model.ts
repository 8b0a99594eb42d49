import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../read-models/read-database';

/** At most this many groups in one answer (10 scorers of 100 agents over 10 days, say). */
export const MAX_SCORE_GROUPS = 10_000;

/** One group's scores: how many, their mean, least and greatest. */
export interface ScoreSums {
  agentId: string;
  scorer: string;
  day?: string;
  count: number;
  mean: number;
  min: number;
  max: number;
}

export interface ScoreFilter {
  agentId?: string;
  scorer?: string;
  /** `YYYY-MM-DD`, included. */
  fromDay: string;
  /** `YYYY-MM-DD`, not included. */
  toDay: string;
}

interface SumsRow {
  agent_id: string;
  scorer: string;
  day: string | null;
  count: number;
  sum: number;
  min: number;
  max: number;
}

const WHERE = `day >= @fromDay AND day < @toDay
  AND (@agentId IS NULL OR agent_id = @agentId) AND (@scorer IS NULL OR scorer = @scorer)`;
const SUMS = 'SUM(count) AS count, SUM(sum) AS sum, MIN(min) AS min, MAX(max) AS max';

/**
 * `run_scores_by_day`: the live scores of runs summed by their agent, scorer and day (UTC), so a query reads
 * days × agents × scorers rows, never the runs. Written by ScoresProjection, read by `GET /v1/scores`.
 */
@Injectable()
export class ScoresReadModel {
  private readonly statements: ReturnType<typeof prepare>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepare(db);
  }

  /** Rows are written as each event is applied: nothing to gather per batch. */
  batch(work: () => void): void {
    work();
  }

  scored(agentId: string, scorer: string, at: string, score: number): void {
    this.statements.add.run(agentId, scorer, at.slice(0, 10), score, score, score);
  }

  /** The sums by agent and scorer, and by day too when `byDay`: agent, scorer and day in order. */
  sums(filter: ScoreFilter, byDay: boolean): ScoreSums[] {
    const rows = (byDay ? this.statements.byDay : this.statements.total).all({
      agentId: filter.agentId ?? null,
      scorer: filter.scorer ?? null,
      fromDay: filter.fromDay,
      toDay: filter.toDay,
    });
    return rows.map((row) => ({
      agentId: row.agent_id,
      scorer: row.scorer,
      ...(row.day !== null && { day: row.day }),
      count: row.count,
      mean: Math.round((row.sum / row.count) * 10_000) / 10_000,
      min: row.min,
      max: row.max,
    }));
  }
}

function prepare(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS run_scores_by_day (
      agent_id TEXT NOT NULL, scorer TEXT NOT NULL, day TEXT NOT NULL,
      count INTEGER NOT NULL, sum REAL NOT NULL, min REAL NOT NULL, max REAL NOT NULL,
      PRIMARY KEY (agent_id, scorer, day)
    ) WITHOUT ROWID;`);
  type Params = Record<'agentId' | 'scorer' | 'fromDay' | 'toDay', string | null>;
  return {
    add: db.prepare<[string, string, string, number, number, number]>(
      `INSERT INTO run_scores_by_day (agent_id, scorer, day, count, sum, min, max) VALUES (?, ?, ?, 1, ?, ?, ?)
       ON CONFLICT (agent_id, scorer, day) DO UPDATE SET count = count + 1, sum = sum + excluded.sum,
         min = MIN(min, excluded.min), max = MAX(max, excluded.max)`,
    ),
    total: db.prepare<[Params], SumsRow>(
      `SELECT agent_id, scorer, NULL AS day, ${SUMS} FROM run_scores_by_day WHERE ${WHERE}
       GROUP BY agent_id, scorer ORDER BY agent_id, scorer LIMIT ${MAX_SCORE_GROUPS}`,
    ),
    byDay: db.prepare<[Params], SumsRow>(
      `SELECT agent_id, scorer, day, ${SUMS} FROM run_scores_by_day WHERE ${WHERE}
       GROUP BY agent_id, scorer, day ORDER BY agent_id, scorer, day LIMIT ${MAX_SCORE_GROUPS}`,
    ),
  };
}
