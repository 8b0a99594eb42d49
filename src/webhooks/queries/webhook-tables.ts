import type Database from 'better-sqlite3';
import { dropForRebuild, tableColumns } from '../../read-models/read-database';

export interface WebhookRow {
  id: string;
  url: string;
  events: string;
  description: string | null;
  enabled: number | bigint;
  disabled_reason: string | null;
  encrypted_secret: string;
  /** The log position it was created at: it is sent the events after it. */
  created_position: bigint;
  /** The log position deliveries start after: its creation's, or its last re-enabling's. */
  started_position: bigint;
  created_at: string;
  updated_at: string;
}

/** A read model from before `started_position` is dropped and rebuilt from the log. */
function migrate(db: Database.Database): void {
  const columns = tableColumns(db, 'webhooks');
  if (columns.length === 0 || columns.includes('started_position')) return;
  dropForRebuild(db, 'webhooks', ['webhooks', 'webhook_attempts']);
}

/** `webhooks` (deleted ones are removed) and `webhook_attempts`, each delivery attempt by its event's log position. */
export function createWebhookTables(db: Database.Database): void {
  migrate(db);
  db.exec(`
    CREATE TABLE IF NOT EXISTS webhooks (
      id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, description TEXT, enabled INTEGER NOT NULL,
      disabled_reason TEXT, encrypted_secret TEXT NOT NULL, created_position INTEGER NOT NULL,
      started_position INTEGER NOT NULL,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS webhook_attempts (
      position INTEGER PRIMARY KEY, webhook_id TEXT NOT NULL, delivery_id TEXT NOT NULL, doc TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS webhook_attempts_by_webhook ON webhook_attempts (webhook_id, position);
    CREATE INDEX IF NOT EXISTS webhook_attempts_by_delivery ON webhook_attempts (webhook_id, delivery_id);
  `);
}
