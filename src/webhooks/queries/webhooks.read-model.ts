import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page } from '../../read-models/page';
import { READ_DATABASE } from '../../read-models/read-database';
import { Webhook, WebhookChanges } from '../webhook';
import { AttemptOutcome, DeliveredEvent } from '../webhook-delivery';
import { WebhookRow, createWebhookTables } from './webhook-tables';

/** One delivery attempt as the API lists it. */
export type DeliveryAttempt = DeliveredEvent &
  Omit<AttemptOutcome, 'outcome'> & { status: AttemptOutcome['outcome']; attempt: number; redelivery: boolean };

/** What the dispatcher needs of a webhook: its settings, the sealed secret, and where in the log it starts. */
export interface WebhookTarget extends Webhook {
  encryptedSecret: string;
  /** It is sent the events after this position: its creation's, or its last re-enabling's. */
  startPosition: bigint;
}

function prepareStatements(db: Database.Database) {
  createWebhookTables(db);
  return {
    insert: db.prepare(
      `INSERT INTO webhooks (id, url, events, description, enabled, encrypted_secret, created_position, started_position,
         created_at, updated_at)
       VALUES (@id, @url, @events, @description, 1, @encryptedSecret, @position, @position, @createdAt, @createdAt)
       ON CONFLICT (id) DO NOTHING`,
    ),
    get: db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?').safeIntegers(true),
    update: db.prepare(
      `UPDATE webhooks SET url = @url, events = @events, description = @description, enabled = @enabled,
         disabled_reason = @disabledReason, encrypted_secret = @encryptedSecret, started_position = @startPosition,
         updated_at = @updatedAt WHERE id = @id`,
    ),
    remove: db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?'),
    removeAttempts: db.prepare<[string]>('DELETE FROM webhook_attempts WHERE webhook_id = ?'),
    list: db
      .prepare<[string, number], WebhookRow>('SELECT * FROM webhooks WHERE id > ? ORDER BY id LIMIT ?')
      .safeIntegers(true),
    enabled: db.prepare<[], WebhookRow>('SELECT * FROM webhooks WHERE enabled = 1').safeIntegers(true),
    addAttempt: db.prepare<[bigint, string, string, string]>(
      'INSERT OR IGNORE INTO webhook_attempts (position, webhook_id, delivery_id, doc) VALUES (?, ?, ?, ?)',
    ),
    attempts: db
      .prepare<[string, bigint, number], { position: bigint; doc: string }>(
        'SELECT position, doc FROM webhook_attempts WHERE webhook_id = ? AND position < ? ORDER BY position DESC LIMIT ?',
      )
      .safeIntegers(true),
    attemptOf: db.prepare<[string, string], { doc: string }>(
      'SELECT doc FROM webhook_attempts WHERE webhook_id = ? AND delivery_id = ? ORDER BY position DESC LIMIT 1',
    ),
  };
}

/** `webhooks` and `webhook_attempts`: written by WebhooksProjection, read by the routes and the dispatcher. */
@Injectable()
export class WebhooksReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  create(
    webhook: Pick<Webhook, 'id' | 'url' | 'events' | 'description' | 'createdAt'>,
    encryptedSecret: string,
    position: bigint,
  ): void {
    const { id, url, events, description, createdAt } = webhook;
    this.statements.insert.run({
      id,
      url,
      events: JSON.stringify(events),
      description,
      encryptedSecret,
      position,
      createdAt,
    });
  }

  /**
   * Changes fields of a webhook at log `position`; `enabled` set by a caller clears the reason the service disabled
   * it for, and a re-enabled webhook starts again after `position` (events written while it was disabled are not sent).
   */
  change(
    id: string,
    changes: WebhookChanges & { encryptedSecret?: string; disabledReason?: string | null },
    at: string,
    position: bigint,
  ): void {
    const current = this.target(id);
    if (!current) return;
    const next = { ...current, ...changes };
    const disabledReason =
      changes.disabledReason !== undefined
        ? changes.disabledReason
        : changes.enabled !== undefined
          ? null
          : current.disabledReason;
    this.statements.update.run({
      id,
      url: next.url,
      events: JSON.stringify(next.events),
      description: next.description,
      enabled: next.enabled ? 1 : 0,
      disabledReason,
      encryptedSecret: next.encryptedSecret,
      startPosition: changes.enabled && !current.enabled ? position : current.startPosition,
      updatedAt: at,
    });
  }

  remove(id: string): void {
    this.statements.remove.run(id);
    this.statements.removeAttempts.run(id);
  }

  addAttempt(position: bigint, webhookId: string, attempt: DeliveryAttempt): void {
    if (!this.statements.get.get(webhookId)) return;
    this.statements.addAttempt.run(position, webhookId, attempt.deliveryId, JSON.stringify(attempt));
  }

  get(id: string): Webhook | undefined {
    const row = this.statements.get.get(id);
    return row && toWebhook(row);
  }

  target(id: string): WebhookTarget | undefined {
    const row = this.statements.get.get(id);
    return row && toTarget(row);
  }

  enabledTargets(): WebhookTarget[] {
    return this.statements.enabled.all().map(toTarget);
  }

  list(after: string, limit: number): Page<Webhook> {
    const rows = this.statements.list.all(after, limit + 1);
    const items = rows.slice(0, limit).map(toWebhook);
    const more = rows.length > limit;
    return { items, nextCursor: more ? Buffer.from(items[items.length - 1].id).toString('base64url') : null };
  }

  /** Attempts newest first, before the attempt at log position `before`. */
  attempts(webhookId: string, before: bigint, limit: number): Page<DeliveryAttempt> {
    const rows = this.statements.attempts.all(webhookId, before, limit + 1);
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return {
      items: page.map((row) => JSON.parse(row.doc) as DeliveryAttempt),
      nextCursor: more ? Buffer.from(String(page[page.length - 1].position)).toString('base64url') : null,
    };
  }

  /** The last attempt of a delivery (what to send again), or undefined. */
  lastAttemptOf(webhookId: string, deliveryId: string): DeliveryAttempt | undefined {
    const row = this.statements.attemptOf.get(webhookId, deliveryId);
    return row && (JSON.parse(row.doc) as DeliveryAttempt);
  }
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toTarget(row: WebhookRow): WebhookTarget {
  return { ...toWebhook(row), encryptedSecret: row.encrypted_secret, startPosition: BigInt(row.started_position) };
}
