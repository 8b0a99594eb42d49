import Database from 'better-sqlite3';
import { SQLITE_PAGE_CACHE_SIZE } from '../../shared/sqlite-page-cache';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

/** What every connection to the log's file sets (the writer and reader threads set the same). */
export interface ConnectionSettings {
  synchronous: SqliteSynchronous;
  busyTimeoutMs: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS snapshots (
    stream         TEXT    PRIMARY KEY,
    revision       INTEGER NOT NULL,
    schema_version INTEGER NOT NULL,
    state          TEXT    NOT NULL,
    taken_at       INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- For the filters of GET /v1/events (migration: created on the first start after an upgrade).
  CREATE INDEX IF NOT EXISTS events_by_type ON events (type, position);
  CREATE INDEX IF NOT EXISTS events_by_stream ON events (stream, position);
`;

/** This thread's connection, in WAL mode; creates the tables the first time. */
export function openLog(file: string, { synchronous, busyTimeoutMs }: ConnectionSettings): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma(`cache_size = ${SQLITE_PAGE_CACHE_SIZE}`);
  db.exec(SCHEMA);
  return db;
}
