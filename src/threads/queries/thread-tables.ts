import type Database from 'better-sqlite3';
import { dropForRebuild, tableColumns } from '../../read-models/read-database';

/** A row of `threads`. */
export interface ThreadRow {
  id: string;
  agent_id: string;
  metadata: string;
  subject_id: string | null;
  message_count: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  /** Runs of the thread not settled yet (queued, running, waiting, or succeeded with the exchange not recorded). */
  open_runs: number;
  /** Its running summary (`memory.summarize`); null: none. */
  summary: string | null;
}

/**
 * `threads`; `thread_messages`, each thread's messages numbered from 0 (`seq`); `thread_runs`, the runs on each
 * thread with the log position they were queued at, and whether they are still open (the executor takes a
 * thread's runs one at a time, in that order); `thread_summaries`, each thread's running summary of the messages
 * that fell out of its window, and the last message it folds in.
 */
export function createThreadTables(db: Database.Database): void {
  // A read model from before threads had subjects is dropped and rebuilt from the log.
  const columns = tableColumns(db, 'threads');
  if (columns.length > 0 && !columns.includes('subject_id')) {
    dropForRebuild(db, 'threads', ['threads', 'thread_messages', 'thread_runs', 'thread_summaries']);
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS threads (
      id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, metadata TEXT NOT NULL, subject_id TEXT, message_count INTEGER NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL, archived_at TEXT
    );
    CREATE INDEX IF NOT EXISTS threads_by_agent ON threads (agent_id, id);
    CREATE TABLE IF NOT EXISTS thread_messages (
      thread_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL, doc TEXT NOT NULL,
      PRIMARY KEY (thread_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS thread_runs (
      run_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, queued_at INTEGER NOT NULL, open INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS thread_runs_open ON thread_runs (thread_id, queued_at) WHERE open = 1;
    CREATE TABLE IF NOT EXISTS thread_summaries (
      thread_id TEXT PRIMARY KEY, summary TEXT NOT NULL, through_seq INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}
