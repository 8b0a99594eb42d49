import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../read-models/page';
import { READ_DATABASE } from '../../read-models/read-database';
import type { ScoredItem } from '../experiment';
import type { ExperimentView } from '../experiment-view';

/** One item's result as the API lists it: its run's answer and scores. */
export type ExperimentResult = ScoredItem & { scoredAt: string };

function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS experiments (id TEXT PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS experiment_results (
      experiment_id TEXT NOT NULL, item_id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (experiment_id, item_id)
    );
  `);
  return {
    put: db.prepare<[string, string]>(
      'INSERT INTO experiments (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc',
    ),
    get: db.prepare<[string], { doc: string }>('SELECT doc FROM experiments WHERE id = ?'),
    list: db.prepare<[string, number], { doc: string }>('SELECT doc FROM experiments WHERE id > ? ORDER BY id LIMIT ?'),
    addResult: db.prepare<[string, string, string]>(
      'INSERT OR IGNORE INTO experiment_results (experiment_id, item_id, doc) VALUES (?, ?, ?)',
    ),
    results: db.prepare<[string, string, number], { item_id: string; doc: string }>(
      'SELECT item_id, doc FROM experiment_results WHERE experiment_id = ? AND item_id > ? ORDER BY item_id LIMIT ?',
    ),
  };
}

/** `experiments` (each as the API shows it, its summary as it stands) and each scored item's result. */
@Injectable()
export class ExperimentsReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  put(experiment: ExperimentView): void {
    this.statements.put.run(experiment.id, JSON.stringify(experiment));
  }

  get(id: string): ExperimentView | undefined {
    const row = this.statements.get.get(id);
    return row && (JSON.parse(row.doc) as ExperimentView);
  }

  list(after: string, limit: number): Page<ExperimentView> {
    const rows = this.statements.list.all(after, limit + 1);
    return toPage(
      rows.map((row) => JSON.parse(row.doc) as ExperimentView),
      limit,
    );
  }

  addResult(experimentId: string, result: ExperimentResult): void {
    this.statements.addResult.run(experimentId, result.itemId, JSON.stringify(result));
  }

  /** The items' results, in the dataset's order (by item id). */
  results(experimentId: string, after: string, limit: number): Page<ExperimentResult> {
    const rows = this.statements.results.all(experimentId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => JSON.parse(row.doc) as ExperimentResult),
      nextCursor: rows.length > limit ? Buffer.from(last.item_id).toString('base64url') : null,
    };
  }
}
