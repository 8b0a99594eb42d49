import type Database from 'better-sqlite3';
import { Page, toPage } from './page';

/** What a list of definitions (agents, workflows) is filtered by. */
export interface DefinitionListFilter {
  /** Undefined: every status but `archived`. */
  status?: string;
  /** A prefix of the name, case-insensitive for ASCII letters (SQLite's LIKE). */
  name?: string;
}

/**
 * The WHERE clause and parameters of a page of definitions after the cursor id, filtered. The statement text
 * depends only on which filters are set, so callers can keep one prepared statement per combination.
 */
export function definitionListWhere({ status, name }: DefinitionListFilter, after: string) {
  const clauses = ['id > ?', status === undefined ? `status != 'archived'` : 'status = ?'];
  const params: string[] = [after];
  if (status !== undefined) params.push(status);
  if (name !== undefined) {
    clauses.push(`name LIKE ? ESCAPE '\\'`);
    params.push(`${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { where: clauses.join(' AND '), params };
}

/** Pages of a table of definitions (`agents`, `workflows`) by `definitionListWhere`, a statement per combination. */
export class DefinitionPages<Row extends { id: string }> {
  private readonly statements = new Map<string, Database.Statement<Array<string | number>, Row>>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
  ) {}

  page<Item extends { id: string }>(
    filter: DefinitionListFilter,
    after: string,
    limit: number,
    toItem: (row: Row) => Item,
  ): Page<Item> {
    const { where, params } = definitionListWhere(filter, after);
    let statement = this.statements.get(where);
    if (!statement) {
      statement = this.db.prepare(`SELECT * FROM ${this.table} WHERE ${where} ORDER BY id LIMIT ?`);
      this.statements.set(where, statement);
    }
    return toPage(statement.all(...params, limit + 1).map(toItem), limit);
  }
}
