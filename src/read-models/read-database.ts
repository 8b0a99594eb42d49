import Database from 'better-sqlite3';

export const READ_DATABASE = Symbol('ReadDatabase');

/**
 * The instance's read models: one SQLite file, rebuilt from the event log whenever it is missing.
 * synchronous=NORMAL is enough here: a crash can lose only the newest projected events, which are replayed
 * from the log because each checkpoint commits with its writes.
 */
export function openReadDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS projection_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  return db;
}
