import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { READ_DATABASE } from '../../read-models/read-database';
import { MemoryItemPut, MemoryItemRemoved } from '../memory-item';
import { MemoryRow, MemoryVersionRow, createMemoryTables } from './memory-tables';
import { searchText } from './memory-text';

/** An item as the API shows it, with where its value came from: the event that put it, and the run, if one did. */
export interface MemoryView {
  namespace: string;
  key: string;
  value: unknown;
  version: number;
  createdAt: string;
  updatedAt: string;
  expiresAt: string | null;
  source: { runId?: string; eventId: string };
}

/** One version of an item: a put, or its removal (`removed`, with no value). */
export type MemoryVersionView = Omit<MemoryView, 'value'> & { value: unknown; removed: 'deleted' | 'expired' | null };

/** Top-level fields of the value an item must have, each equal to the value given. */
export type MemoryFilter = Record<string, string | number | boolean | null>;

/** What changed of an item's row, for what follows the read model (the vector index). */
export type MemoryChange =
  | { id: number; removed: false; namespace: string; text: string }
  /** `forgottenText`: the item's subject was forgotten, and this was its text. */
  | { id: number; removed: true; forgottenText?: string };

const LIVE = '(expires_at IS NULL OR expires_at > @now)';

function prepareStatements(db: Database.Database) {
  createMemoryTables(db);
  return {
    upsert: db.prepare<[string, string, string, number, string, string, string | null, string | null, string]>(
      `INSERT INTO memory_items (namespace, key, value, version, created_at, updated_at, expires_at, run_id, event_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, version = excluded.version,
         updated_at = excluded.updated_at, expires_at = excluded.expires_at, run_id = excluded.run_id,
         event_id = excluded.event_id
       RETURNING id, created_at`,
    ),
    addVersion: db.prepare(
      `INSERT OR IGNORE INTO memory_versions
         (namespace, key, version, value, removed, created_at, updated_at, expires_at, run_id, event_id)
       VALUES (@namespace, @key, @version, @value, @removed, @created_at, @updated_at, @expires_at, @run_id, @event_id)`,
    ),
    idOf: db.prepare<[string, string], { id: number; created_at: string }>(
      'SELECT id, created_at FROM memory_items WHERE namespace = ? AND key = ?',
    ),
    drop: db.prepare<[number]>('DELETE FROM memory_items WHERE id = ?'),
    unindex: db.prepare<[number]>('DELETE FROM memory_search WHERE rowid = ?'),
    index: db.prepare<[number, string]>('INSERT INTO memory_search (rowid, text) VALUES (?, ?)'),
    get: db.prepare<{ namespace: string; key: string; now: string }, MemoryRow>(
      `SELECT * FROM memory_items WHERE namespace = @namespace AND key = @key AND ${LIVE}`,
    ),
    asOf: db.prepare<[string, string, string], MemoryVersionRow>(
      `SELECT * FROM memory_versions WHERE namespace = ? AND key = ? AND updated_at <= ?
       ORDER BY version DESC LIMIT 1`,
    ),
    list: db.prepare<{ namespace: string; prefix: string; after: string; now: string; limit: number }, MemoryRow>(
      `SELECT * FROM memory_items WHERE namespace = @namespace AND key > @after
         AND substr(key, 1, length(@prefix)) = @prefix AND ${LIVE} ORDER BY key LIMIT @limit`,
    ),
    history: db.prepare<[string, string, number, number], MemoryVersionRow>(
      'SELECT * FROM memory_versions WHERE namespace = ? AND key = ? AND version > ? ORDER BY version LIMIT ?',
    ),
    version: db.prepare<[string, string, number], MemoryVersionRow>(
      'SELECT * FROM memory_versions WHERE namespace = ? AND key = ? AND version = ?',
    ),
    namespaces: db.prepare<{ after: string; now: string; limit: number }, { namespace: string; items: number }>(
      `SELECT namespace, count(*) AS items FROM memory_items WHERE namespace > @after AND ${LIVE}
       GROUP BY namespace ORDER BY namespace LIMIT @limit`,
    ),
    within: db.prepare<{ namespace: string; below: string }, { id: number; namespace: string; text: string }>(
      `SELECT i.id, i.namespace, s.text FROM memory_items i JOIN memory_search s ON s.rowid = i.id
       WHERE i.namespace = @namespace OR substr(i.namespace, 1, length(@below)) = @below`,
    ),
    textOf: db.prepare<[number], { text: string }>('SELECT text FROM memory_search WHERE rowid = ?'),
    dropVersions: db.prepare<[string, string]>('DELETE FROM memory_versions WHERE namespace = ? AND key = ?'),
    dropVersionsWithin: db.prepare<{ namespace: string; below: string }>(
      'DELETE FROM memory_versions WHERE namespace = @namespace OR substr(namespace, 1, length(@below)) = @below',
    ),
    texts: db.prepare<[number, number], { id: number; namespace: string; text: string }>(
      `SELECT i.id, i.namespace, s.text FROM memory_items i JOIN memory_search s ON s.rowid = i.id
       WHERE i.id > ? ORDER BY i.id LIMIT ?`,
    ),
    expired: db.prepare<[string, number], { namespace: string; key: string; version: number }>(
      'SELECT namespace, key, version FROM memory_items WHERE expires_at <= ? ORDER BY expires_at LIMIT ?',
    ),
  };
}

/** The memory items, their versions and their search index: written by MemoryProjection, read by the memory routes. */
@Injectable()
export class MemoryReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly searches = new Map<number, Database.Statement>();
  private readonly byIdStatements = new Map<number, Database.Statement>();
  private readonly listeners: Array<(change: MemoryChange) => void> = [];

  constructor(@Inject(READ_DATABASE) private readonly db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  /** Calls `listener` with each change of an item's row, as the projection makes it. */
  onChange(listener: (change: MemoryChange) => void): void {
    this.listeners.push(listener);
  }

  put({ namespace, key, value, version, expiresAt, runId, putAt }: MemoryItemPut['data'], eventId: string): void {
    const json = JSON.stringify(value);
    const before = this.statements.idOf.get(namespace, key);
    const row = this.statements.upsert.get(
      namespace,
      key,
      json,
      version,
      putAt,
      putAt,
      expiresAt,
      runId ?? null,
      eventId,
    ) as {
      id: number;
      created_at: string;
    };
    if (before) this.statements.unindex.run(before.id);
    const text = searchText(key, value);
    this.statements.index.run(row.id, text);
    for (const listener of this.listeners) listener({ id: row.id, removed: false, namespace, text });
    this.statements.addVersion.run({
      namespace,
      key,
      version,
      value: json,
      removed: null,
      created_at: row.created_at,
      updated_at: putAt,
      expires_at: expiresAt,
      run_id: runId ?? null,
      event_id: eventId,
    });
  }

  removed({ namespace, key, version, reason, removedAt }: MemoryItemRemoved['data'], eventId: string): void {
    const before = this.statements.idOf.get(namespace, key);
    if (before) {
      this.statements.unindex.run(before.id);
      this.statements.drop.run(before.id);
      for (const listener of this.listeners) listener({ id: before.id, removed: true });
    }
    this.statements.addVersion.run({
      namespace,
      key,
      version,
      value: null,
      removed: reason,
      created_at: before?.created_at ?? removedAt,
      updated_at: removedAt,
      expires_at: null,
      run_id: null,
      event_id: eventId,
    });
  }

  /**
   * The items of these namespaces (and those below them) and of these item streams are gone, every version of them
   * too: their subject was forgotten.
   */
  forget(namespaces: string[], items: Array<{ namespace: string; key: string }>): void {
    const gone = (id: number, text: string) => {
      this.statements.unindex.run(id);
      this.statements.drop.run(id);
      for (const listener of this.listeners) listener({ id, removed: true, forgottenText: text });
    };
    for (const namespace of namespaces) {
      const scope = { namespace, below: `${namespace}/` };
      for (const row of this.statements.within.all(scope)) gone(row.id, row.text);
      this.statements.dropVersionsWithin.run(scope);
    }
    for (const { namespace, key } of items) {
      const item = this.statements.idOf.get(namespace, key);
      if (item) gone(item.id, this.statements.textOf.get(item.id)?.text ?? '');
      this.statements.dropVersions.run(namespace, key);
    }
  }

  get(namespace: string, key: string, now: Date): MemoryView | undefined {
    const row = this.statements.get.get({ namespace, key, now: now.toISOString() });
    return row && toView(row);
  }

  /** The version `version` of the item, as it was put (whatever has happened since). */
  version(namespace: string, key: string, version: number): MemoryView | undefined {
    const row = this.statements.version.get(namespace, key, version);
    return row && toView(row);
  }

  /** The item as it was at `at`: its last version by then, unless that removed it or it had expired. */
  asOf(namespace: string, key: string, at: Date): MemoryView | undefined {
    const row = this.statements.asOf.get(namespace, key, at.toISOString());
    if (!row || row.removed || (row.expires_at !== null && Date.parse(row.expires_at) <= at.getTime()))
      return undefined;
    return toView(row);
  }

  /** The items of one namespace (not of those below it) whose key begins with `prefix`, by key. */
  list(namespace: string, prefix: string, after: string, limit: number, now: Date): MemoryView[] {
    const rows = this.statements.list.all({ namespace, prefix, after, now: now.toISOString(), limit });
    return rows.map(toView);
  }

  history(namespace: string, key: string, afterVersion: number, limit: number): MemoryVersionView[] {
    return this.statements.history.all(namespace, key, afterVersion, limit).map((row) => ({
      ...toView(row),
      removed: (row.removed as MemoryVersionView['removed']) ?? null,
    }));
  }

  /**
   * The items of `namespace` and of the namespaces below it whose text matches `match` (an FTS5 expression, see
   * matchExpression), best first by BM25, with `score` (higher is better), and whose value has the `filter`'s fields.
   */
  search(namespace: string, match: string, filter: MemoryFilter, limit: number, now: Date) {
    const fields = Object.entries(filter);
    const params = { match, namespace, below: `${namespace}/`, now: now.toISOString(), limit, ...filterParams(fields) };
    const rows = this.searchStatement(fields.length).all(params) as Array<MemoryRow & { score: number }>;
    return rows.map((row) => ({ ...toView(row), score: row.score }));
  }

  /** The row id of an item as it stands (an item removed and put again has a new one). */
  idOf(namespace: string, key: string): number | undefined {
    return this.statements.idOf.get(namespace, key)?.id;
  }

  /** Every item's row id, namespace and text (as keyword search reads it), by id, after `after`. */
  texts(after: number, limit: number) {
    return this.statements.texts.all(after, limit);
  }

  /** The items of these row ids that are live and whose value has the `filter`'s fields, in no order. */
  byIds(ids: number[], filter: MemoryFilter, now: Date): Array<MemoryView & { id: number }> {
    const fields = Object.entries(filter);
    let statement = this.byIdStatements.get(fields.length);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT * FROM memory_items i WHERE id IN (SELECT value FROM json_each(@ids)) AND ${LIVE}
         ${filterConditions(fields.length)}`,
      );
      this.byIdStatements.set(fields.length, statement);
    }
    const params = { ids: JSON.stringify(ids), now: now.toISOString(), ...filterParams(fields) };
    return (statement.all(params) as Array<MemoryRow & { id: number }>).map((row) => ({ ...toView(row), id: row.id }));
  }

  /** The namespaces that hold items now, by name, with how many each holds. */
  namespaces(after: string, limit: number, now: Date): Array<{ namespace: string; items: number }> {
    return this.statements.namespaces.all({ after, now: now.toISOString(), limit });
  }

  /** Items whose time to live has ended by `now`, oldest first: their removal is due. */
  expired(now: Date, limit: number) {
    return this.statements.expired.all(now.toISOString(), limit);
  }

  private searchStatement(filters: number): Database.Statement {
    let statement = this.searches.get(filters);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT i.*, -bm25(memory_search) AS score FROM memory_search JOIN memory_items i ON i.id = memory_search.rowid
         WHERE memory_search MATCH @match
           AND (i.namespace = @namespace OR substr(i.namespace, 1, length(@below)) = @below)
           AND (i.expires_at IS NULL OR i.expires_at > @now) ${filterConditions(filters)}
         ORDER BY bm25(memory_search) LIMIT @limit`,
      );
      this.searches.set(filters, statement);
    }
    return statement;
  }
}

/** The conditions of a filter of `count` fields on `i.value`, given their parameters by `filterParams`. */
function filterConditions(count: number): string {
  return Array.from({ length: count }, (_, i) => `AND json_extract(i.value, @p${i}) IS @v${i}`).join(' ');
}

function filterParams(fields: Array<[string, string | number | boolean | null]>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  fields.forEach(([field, value], i) => {
    params[`p${i}`] = `$."${field}"`;
    params[`v${i}`] = typeof value === 'boolean' ? Number(value) : value;
  });
  return params;
}

function toView(row: MemoryRow): MemoryView {
  return {
    namespace: row.namespace,
    key: row.key,
    value: row.value === null ? null : (JSON.parse(row.value) as unknown),
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    source: { ...(row.run_id && { runId: row.run_id }), eventId: row.event_id },
  };
}
