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
