import type Database from 'better-sqlite3';

/** A row of `memory_items` (an item as it stands) or of `memory_versions` (one of its versions). */
export interface MemoryRow {
  namespace: string;
  key: string;
  /** JSON; null in a version that removed the item. */
  value: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  run_id: string | null;
  event_id: string;
}

export interface MemoryVersionRow extends MemoryRow {
  /** `deleted` or `expired` for a version that removed the item; null for a put. */
  removed: string | null;
}

/**
 * `memory_items`, the items as they stand (a removed item has no row), with a rowid that is also the item's row in
 * `memory_search`, the FTS5 index of its text; `memory_versions`, every version of every item, for its history and
 * for reading it as it was.
 */
export function createMemoryTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS memory_items (
      id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
      version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expires_at TEXT, run_id TEXT,
      event_id TEXT NOT NULL, UNIQUE (namespace, key)
    );
    CREATE INDEX IF NOT EXISTS memory_items_expiry ON memory_items (expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS memory_versions (
      namespace TEXT NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, value TEXT, removed TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expires_at TEXT, run_id TEXT, event_id TEXT NOT NULL,
      PRIMARY KEY (namespace, key, version)
    ) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS memory_search USING fts5(text, tokenize = 'porter unicode61');
  `);
}
