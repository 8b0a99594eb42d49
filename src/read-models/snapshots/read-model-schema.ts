import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/**
 * The fingerprint of the read database's schema as this version of the service makes it: every table, index and
 * trigger the read models create. A snapshot records the fingerprint of the database it copied, and an instance
 * restores only a snapshot with its own. `test/e2e/read-model-snapshots.e2e-spec.ts` keeps this value equal to what
 * the read models create: changing a table's shape fails that test until the new fingerprint is written here.
 */
export const READ_MODEL_SCHEMA = 'd694748e63fde6d4f9ba3015a03be2ac';

/**
 * A short hash of the database's shape: each table's columns (by name, so that a column added by a migration counts
 * the same as one a new file was made with), and the SQL of its indexes, virtual tables, triggers and views.
 */
export function schemaFingerprint(db: Database.Database): string {
  const objects = db
    .prepare<[], { type: string; name: string; sql: string | null }>(
      "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    )
    .all();
  const columns = db.prepare<[string], { name: string; type: string; notnull: number; pk: number }>(
    'SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY name',
  );
  const hash = createHash('sha256');
  for (const { type, name, sql } of objects) {
    let shape: string;
    if (type === 'table' && !/^CREATE VIRTUAL/i.test(sql ?? '')) {
      shape = columns
        .all(name)
        .map((column) => `${column.name}:${column.type}:${column.notnull}:${column.pk}`)
        .join(',');
    } else shape = sql ?? '';
    hash.update(`${type} ${name} ${shape}\n`);
  }
  return hash.digest('hex').slice(0, 32);
}
