import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { writeDurably } from '../shared/durable-files';
import { SQLITE_PAGE_CACHE_SIZE } from '../shared/sqlite-page-cache';
import { createCheckpointTable } from './sqlite-checkpoint-store';

export const READ_DATABASE = Symbol('ReadDatabase');

/**
 * The instance's read models: one SQLite file, rebuilt from the event log whenever it is missing.
 * synchronous=NORMAL is enough here: a crash can lose only the newest projected events, which are replayed
 * from the log because each checkpoint commits with its writes. A file left by a catch-up that did not end
 * (see `startCatchUp`) may be damaged: it is deleted, and the read models are rebuilt.
 */
export function openReadDatabase(file: string): Database.Database {
  if (existsSync(catchUpMarker(file))) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    rmSync(catchUpMarker(file), { force: true });
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = ${SQLITE_PAGE_CACHE_SIZE}`);
  createCheckpointTable(db);
  return db;
}

/**
 * While the read models catch up with the log at start, commits neither sync nor go through the WAL
 * (journal_mode=MEMORY, synchronous=OFF): each page is written once, straight into the file, which makes a
 * rebuild much faster. This is safe because the file is only a cache of the log: a marker file is made durable
 * first, and removed only once the catch-up has ended and the file is synced (back to synchronous=NORMAL, the
 * switch back to WAL commits with an fsync). If the process or the machine stops in between, the marker is
 * still there at the next start and `openReadDatabase` deletes the read models, which are rebuilt from the log.
 * Returns the function that ends the catch-up; calling it again does nothing.
 */
export function startCatchUp(db: Database.Database): () => void {
  if (db.memory) return () => undefined;
  const marker = catchUpMarker(db.name);
  writeDurably(marker);
  try {
    db.pragma('journal_mode = MEMORY');
  } catch (error) {
    // Leaving WAL needs the file to itself (busy, e.g. right after another process died on it): catch up as usual.
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    rmSync(marker, { force: true });
    return () => undefined;
  }
  db.pragma('synchronous = OFF');
  let ended = false;
  const backToWal = (attemptsLeft: number): void => {
    if (!db.open) return;
    try {
      // Leaving a rollback journal for WAL rewrites the file's header in a transaction, which syncs the file.
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode === 'wal') rmSync(marker, { force: true });
    } catch (error) {
      // Busy (a reader of the file holds it): try again shortly. Meanwhile the marker stays, so a crash rebuilds.
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attemptsLeft === 0) return;
      setTimeout(() => backToWal(attemptsLeft - 1), 100).unref();
    }
  };
  return () => {
    if (ended || !db.open) return;
    ended = true;
    db.pragma('synchronous = NORMAL');
    backToWal(50);
  };
}

/** The names of a table's columns; none when there is no such table (a read model's migration checks its shape). */
export function tableColumns(db: Database.Database, table: string): string[] {
  return db
    .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
    .all(table)
    .map((column) => column.name);
}

/**
 * Drops the tables of a read model of an older shape and forgets its projection's checkpoint, so that the
 * projection writes them again from the start of the log.
 */
export function dropForRebuild(db: Database.Database, projection: string, tables: string[]): void {
  db.exec(tables.map((table) => `DROP TABLE IF EXISTS ${table};`).join(' '));
  db.prepare('DELETE FROM checkpoints WHERE name = ?').run(projection);
}

function catchUpMarker(file: string): string {
  return `${file}.catching-up`;
}
