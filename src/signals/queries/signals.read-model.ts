import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../../read-models/read-database';
import type { Signal } from '../signal';

/** A wait step a signal reached: the run and the step, by position and by id. */
export interface SignalDelivery {
  workflowRunId: string;
  stepIndex: number;
  step: string;
}

/** A wait step that waits: what for, and when it began. */
export interface SignalWait {
  runId: string;
  stepIndex: number;
  stepId: string;
  name: string;
  key: string | null;
  awaitedAt: string;
}

function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS signals (
      id TEXT PRIMARY KEY, name TEXT NOT NULL, key TEXT, data TEXT NOT NULL, sent_at TEXT NOT NULL,
      expires_at TEXT NOT NULL, taken INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS signals_kept ON signals (name, sent_at) WHERE taken = 0;
    CREATE TABLE IF NOT EXISTS signal_waits (
      run_id TEXT NOT NULL, step_index INTEGER NOT NULL, step_id TEXT NOT NULL, name TEXT NOT NULL, key TEXT,
      awaited_at TEXT NOT NULL, PRIMARY KEY (run_id, step_index)
    );
    CREATE INDEX IF NOT EXISTS signal_waits_by_name ON signal_waits (name, key);
    CREATE TABLE IF NOT EXISTS signal_deliveries (
      signal_id TEXT NOT NULL, run_id TEXT NOT NULL, step_index INTEGER NOT NULL, step_id TEXT NOT NULL,
      PRIMARY KEY (signal_id, run_id, step_index)
    );
    CREATE INDEX IF NOT EXISTS signal_deliveries_by_run ON signal_deliveries (run_id, step_index);
  `);
  return {
    putSignal: db.prepare<[string, string, string | null, string, string, string, number]>(
      `INSERT OR IGNORE INTO signals (id, name, key, data, sent_at, expires_at, taken) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    getSignal: db.prepare<
      [string],
      { id: string; name: string; key: string | null; data: string; sent_at: string; expires_at: string }
    >('SELECT * FROM signals WHERE id = ?'),
    // A wait without a key takes a signal of its name with any key; one with a key only a signal with that key.
    waitsFor: db.prepare<[string, string | null], { run_id: string; step_index: number; step_id: string }>(
      'SELECT run_id, step_index, step_id FROM signal_waits WHERE name = ? AND (key IS NULL OR key = ?) ORDER BY awaited_at, run_id',
    ),
    keptFor: db.prepare<[string, string | null, string | null, string, string], { id: string }>(
      `SELECT id FROM signals WHERE taken = 0 AND name = ? AND (? IS NULL OR key = ?) AND sent_at <= ? AND expires_at > ?
       ORDER BY sent_at, id LIMIT 1`,
    ),
    take: db.prepare<[string]>('UPDATE signals SET taken = 1 WHERE id = ?'),
    putWait: db.prepare<[string, number, string, string, string | null, string]>(
      `INSERT OR IGNORE INTO signal_waits (run_id, step_index, step_id, name, key, awaited_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    dropWait: db.prepare<[string, number]>('DELETE FROM signal_waits WHERE run_id = ? AND step_index = ?'),
    dropWaitsOf: db.prepare<[string]>('DELETE FROM signal_waits WHERE run_id = ?'),
    deliver: db.prepare<[string, string, number, string]>(
      'INSERT OR IGNORE INTO signal_deliveries (signal_id, run_id, step_index, step_id) VALUES (?, ?, ?, ?)',
    ),
    deliveriesOf: db.prepare<[string], { run_id: string; step_index: number; step_id: string }>(
      'SELECT run_id, step_index, step_id FROM signal_deliveries WHERE signal_id = ? ORDER BY run_id, step_index',
    ),
    deliveryTo: db.prepare<[string, number], { signal_id: string }>(
      'SELECT signal_id FROM signal_deliveries WHERE run_id = ? AND step_index = ?',
    ),
    dropExpired: db.prepare<[string]>('DELETE FROM signals WHERE taken = 0 AND expires_at <= ?'),
  };
}

/**
 * Which signals reached which waiting steps, decided in the order of the log so every instance decides the same:
 * a signal reaches every step waiting for its name and key when it is sent; a signal that reached none is kept
 * until it expires, and the first wait for it to begin meanwhile takes it (the oldest signal first).
 */
@Injectable()
export class SignalsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  /** A signal sent: it reaches the steps waiting for it, or is kept. Signals kept past their time are dropped. */
  sent(signal: Signal): void {
    const { id, name, key, data, sentAt, expiresAt } = signal;
    this.statements.dropExpired.run(sentAt);
    const waits = this.statements.waitsFor.all(name, key);
    this.statements.putSignal.run(id, name, key, JSON.stringify(data ?? null), sentAt, expiresAt, waits.length ? 1 : 0);
    for (const wait of waits) {
      this.statements.deliver.run(id, wait.run_id, wait.step_index, wait.step_id);
      this.statements.dropWait.run(wait.run_id, wait.step_index);
    }
  }

  /** A wait began: it takes the oldest signal kept for it, or waits. */
  awaited(wait: SignalWait): void {
    const { name, key, awaitedAt } = wait;
    const kept = this.statements.keptFor.get(name, key, key, awaitedAt, awaitedAt);
    if (kept) {
      this.statements.take.run(kept.id);
      this.statements.deliver.run(kept.id, wait.runId, wait.stepIndex, wait.stepId);
      return;
    }
    const { runId, stepIndex, stepId } = wait;
    this.statements.putWait.run(runId, stepIndex, stepId, name, key, awaitedAt);
  }

  /** The step ended (or its run did): it waits no more. */
  stepEnded(runId: string, stepIndex?: number): void {
    if (stepIndex === undefined) this.statements.dropWaitsOf.run(runId);
    else this.statements.dropWait.run(runId, stepIndex);
  }

  signal(signalId: string): Signal | undefined {
    const row = this.statements.getSignal.get(signalId);
    if (!row) return undefined;
    const { id, name, key, data, sent_at: sentAt, expires_at: expiresAt } = row;
    return { id, name, key, data: JSON.parse(data) as unknown, sentAt, expiresAt };
  }

  deliveriesOf(signalId: string): SignalDelivery[] {
    return this.statements.deliveriesOf
      .all(signalId)
      .map((row) => ({ workflowRunId: row.run_id, stepIndex: row.step_index, step: row.step_id }));
  }

  /** The signal that reached a waiting step, if one has. */
  deliveryTo(runId: string, stepIndex: number): string | undefined {
    return this.statements.deliveryTo.get(runId, stepIndex)?.signal_id;
  }
}
