import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../../read-models/read-database';

/** What a step's timer does when it is due: wake a sleep, or time out a wait or an approval. */
export type StepTimerKind = 'wake' | 'wait_timeout' | 'approval_timeout';

export interface StepTimer {
  runId: string;
  stepIndex: number;
  kind: StepTimerKind;
  dueAt: string;
}

function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS workflow_step_timers (
      run_id TEXT NOT NULL, step_index INTEGER NOT NULL, kind TEXT NOT NULL, due_at TEXT NOT NULL,
      PRIMARY KEY (run_id, step_index, kind)
    );
    CREATE INDEX IF NOT EXISTS workflow_step_timers_due ON workflow_step_timers (due_at);
  `);
  return {
    put: db.prepare<[string, number, string, string]>(
      `INSERT INTO workflow_step_timers (run_id, step_index, kind, due_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (run_id, step_index, kind) DO UPDATE SET due_at = excluded.due_at`,
    ),
    dropStep: db.prepare<[string, number]>('DELETE FROM workflow_step_timers WHERE run_id = ? AND step_index = ?'),
    dropRun: db.prepare<[string]>('DELETE FROM workflow_step_timers WHERE run_id = ?'),
    due: db.prepare<[string, number], { run_id: string; step_index: number; kind: StepTimerKind; due_at: string }>(
      'SELECT * FROM workflow_step_timers WHERE due_at <= ? ORDER BY due_at LIMIT ?',
    ),
  };
}

/**
 * The timers of the steps that wait: a sleeping step's wake, a wait's or an approval's time-out. Kept in the read
 * model, not in memory, so a restart (or any instance) finds them, and only those due soon are ever loaded.
 */
@Injectable()
export class StepTimersReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  set({ runId, stepIndex, kind, dueAt }: StepTimer): void {
    this.statements.put.run(runId, stepIndex, kind, dueAt);
  }

  /** The step ended (or, with no index, its run did): its timers are gone. */
  clear(runId: string, stepIndex?: number): void {
    if (stepIndex === undefined) this.statements.dropRun.run(runId);
    else this.statements.dropStep.run(runId, stepIndex);
  }

  /** The timers due by `before`, soonest first. */
  dueBy(before: string, limit: number): StepTimer[] {
    return this.statements.due
      .all(before, limit)
      .map((row) => ({ runId: row.run_id, stepIndex: row.step_index, kind: row.kind, dueAt: row.due_at }));
  }
}
