import type Database from 'better-sqlite3';
import { CheckpointStore } from '../consumers/checkpoint-store';

/** The tables of checkpoints before there was one; their rows move into `checkpoints` the first time. */
const FORMER_TABLES = ['projection_checkpoints', 'process_checkpoints'];

/**
 * Creates the `checkpoints` table, and moves in the rows of the former `projection_checkpoints` (the read models')
 * and `process_checkpoints` (the process managers'), so a data folder keeps every consumer's position.
 */
export function createCheckpointTable(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  const exists = db.prepare<[string], { name: string }>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`,
  );
  for (const table of FORMER_TABLES) {
    if (!exists.get(table)) continue;
    db.transaction(() => {
      db.exec(`INSERT OR REPLACE INTO checkpoints (name, position) SELECT name, position FROM ${table}`);
      db.exec(`DROP TABLE ${table}`);
    })();
  }
}

/**
 * The checkpoints of every consumer of the log, in the read database: should that file be rebuilt, the consumers
 * read the log again from the start, and handling an event twice changes nothing. A projection's checkpoint is
 * written in the same transaction as its rows.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly loadStatement: Database.Statement<[string], { position: number }>;
  private readonly saveStatement: Database.Statement<[string, number]>;

  constructor(db: Database.Database) {
    this.loadStatement = db.prepare('SELECT position FROM checkpoints WHERE name = ?');
    this.saveStatement = db.prepare(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
  }

  load(name: string): bigint {
    return BigInt(this.loadStatement.get(name)?.position ?? 0);
  }

  save(name: string, position: bigint): void {
    this.saveStatement.run(name, Number(position));
  }
}
