import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { Page, toPage } from '../../read-models/page';
import { READ_DATABASE } from '../../read-models/read-database';
import { Scorer } from '../scorer';

function prepareStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS scorers (id TEXT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS scorers_by_name ON scorers (name, status);
  `);
  return {
    put: db.prepare<[string, string, string, string]>(
      `INSERT INTO scorers (id, name, status, doc) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, doc = excluded.doc`,
    ),
    get: db.prepare<[string], { doc: string }>('SELECT doc FROM scorers WHERE id = ?'),
    activeNamed: db.prepare<[string], { doc: string }>(
      "SELECT doc FROM scorers WHERE name = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
    ),
    list: db.prepare<[string, number], { doc: string }>('SELECT doc FROM scorers WHERE id > ? ORDER BY id LIMIT ?'),
    listByStatus: db.prepare<[string, string, number], { doc: string }>(
      'SELECT doc FROM scorers WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
    ),
  };
}

/** `scorers`, each as the API shows it, found by id or by the name of an active one. Written by ScorersProjection. */
@Injectable()
export class ScorersReadModel {
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(@Inject(READ_DATABASE) db: Database.Database) {
    this.statements = prepareStatements(db);
  }

  batch(work: () => void): void {
    work();
  }

  put(scorer: Scorer): void {
    this.statements.put.run(scorer.id, scorer.name, scorer.status, JSON.stringify(scorer));
  }

  get(id: string): Scorer | undefined {
    const row = this.statements.get.get(id);
    return row && (JSON.parse(row.doc) as Scorer);
  }

  /** The active scorer of this name (experiments and agents name scorers). */
  /** Whether an active scorer has this name (an agent's `scorers` name them). */
  hasActiveScorerNamed(name: string): boolean {
    return this.activeNamed(name) !== undefined;
  }

  activeNamed(name: string): Scorer | undefined {
    const row = this.statements.activeNamed.get(name);
    return row && (JSON.parse(row.doc) as Scorer);
  }

  list(after: string, limit: number, status?: Scorer['status']): Page<Scorer> {
    const rows = status
      ? this.statements.listByStatus.all(status, after, limit + 1)
      : this.statements.list.all(after, limit + 1);
    return toPage(
      rows.map((row) => JSON.parse(row.doc) as Scorer),
      limit,
    );
  }
}
