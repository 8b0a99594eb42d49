import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page } from '../../read-models/page';
import { READ_DATABASE } from '../../read-models/read-database';
import { Dataset, DatasetItemData } from '../dataset';

/** One item of a dataset as the API shows it. */
export interface DatasetItem extends DatasetItemData {
  id: string;
  datasetId: string;
  /** The dataset's version that added it. */
  addedInVersion: number;
  createdAt: string;
}

/**
 * `datasets` (each as the API shows it) and `dataset_items`, each item with the versions it was added and removed
 * in, so that a dataset can be read as it was at any of its versions. Written by DatasetsProjection.
 */
function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS datasets (id TEXT PRIMARY KEY, status TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS dataset_items (
      dataset_id TEXT NOT NULL, item_id TEXT NOT NULL, added_version INTEGER NOT NULL, removed_version INTEGER,
      doc TEXT NOT NULL, PRIMARY KEY (dataset_id, item_id)
    );
  `);
  return {
    put: db.prepare<[string, string, string]>(
      'INSERT INTO datasets (id, status, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, doc = excluded.doc',
    ),
    get: db.prepare<[string], { doc: string }>('SELECT doc FROM datasets WHERE id = ?'),
    list: db.prepare<[string, number], { id: string; doc: string }>(
      'SELECT id, doc FROM datasets WHERE id > ? ORDER BY id LIMIT ?',
    ),
    listByStatus: db.prepare<[string, string, number], { id: string; doc: string }>(
      'SELECT id, doc FROM datasets WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
    ),
    addItem: db.prepare<[string, string, number, string]>(
      'INSERT OR IGNORE INTO dataset_items (dataset_id, item_id, added_version, doc) VALUES (?, ?, ?, ?)',
    ),
    removeItem: db.prepare<[number, string, string]>(
      'UPDATE dataset_items SET removed_version = ? WHERE dataset_id = ? AND item_id = ? AND removed_version IS NULL',
    ),
    items: db.prepare<[string, number, number, string, number], { item_id: string; doc: string }>(
      `SELECT item_id, doc FROM dataset_items
       WHERE dataset_id = ? AND added_version <= ? AND (removed_version IS NULL OR removed_version > ?) AND item_id > ?
       ORDER BY item_id LIMIT ?`,
    ),
    countAt: db.prepare<[string, number, number], { count: number }>(
      `SELECT COUNT(*) AS count FROM dataset_items
       WHERE dataset_id = ? AND added_version <= ? AND (removed_version IS NULL OR removed_version > ?)`,
    ),
    itemEver: db.prepare<[string, string], { doc: string }>(
      'SELECT doc FROM dataset_items WHERE dataset_id = ? AND item_id = ?',
    ),
  };
}

@Injectable()
export class DatasetsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  /** The dataset as its last event left it. */
  put(dataset: Dataset): void {
    this.statements.put.run(dataset.id, dataset.status, JSON.stringify(dataset));
  }

  get(id: string): Dataset | undefined {
    const row = this.statements.get.get(id);
    return row && (JSON.parse(row.doc) as Dataset);
  }

  list(after: string, limit: number, status?: Dataset['status']): Page<Dataset> {
    const rows = status
      ? this.statements.listByStatus.all(status, after, limit + 1)
      : this.statements.list.all(after, limit + 1);
    return pageOf(rows, limit, (row) => JSON.parse(row.doc) as Dataset);
  }

  addItem(item: DatasetItem): void {
    this.statements.addItem.run(item.datasetId, item.id, item.addedInVersion, JSON.stringify(item));
  }

  removeItem(datasetId: string, itemId: string, version: number): void {
    this.statements.removeItem.run(version, datasetId, itemId);
  }

  /** The items the dataset held at `version`, in the order they were added (their ids are ULIDs). */
  items(datasetId: string, version: number, after: string, limit: number): Page<DatasetItem> {
    const rows = this.statements.items.all(datasetId, version, version, after, limit + 1);
    return pageOf(rows, limit, (row) => JSON.parse(row.doc) as DatasetItem);
  }

  /** How many items the dataset held at `version`. */
  countAt(datasetId: string, version: number): number {
    return this.statements.countAt.get(datasetId, version, version)!.count;
  }

  /** An item the dataset holds, or held at an earlier version (an experiment on that version reads it). */
  itemEver(datasetId: string, itemId: string): DatasetItem | undefined {
    const row = this.statements.itemEver.get(datasetId, itemId);
    return row && (JSON.parse(row.doc) as DatasetItem);
  }
}

/** A page of `limit` rows (one more was read, to know whether more follow); the cursor is the last row's id. */
function pageOf<R extends { id?: string; item_id?: string }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const id = last && (last.item_id ?? last.id)!;
  return {
    items: page.map(map),
    nextCursor: rows.length > limit ? Buffer.from(id).toString('base64url') : null,
  };
}
