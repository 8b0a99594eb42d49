import type Database from 'better-sqlite3';
import { LatestRun, RunOrder, RunStatus } from '../domain/run';

/** Above every id, so that a newest-first list without a cursor starts at the end. */
const PAST_EVERY_ID = '\uffff';

export type RunRows<Row> = (
  ownerId: string,
  status: RunStatus | undefined,
  after: string,
  limit: number,
  order: RunOrder,
) => Row[];

/**
 * The runs of one agent or workflow, a page at a time, oldest or newest first (ids grow with the time a run was
 * queued); `after` is the last id of the previous page, or '' for the first page.
 */
export function runRows<Row>(db: Database.Database, table: string, owner: string): RunRows<Row> {
  const prepare = (withStatus: boolean, order: RunOrder) =>
    db.prepare<Array<string | number>, Row>(
      `SELECT * FROM ${table} WHERE ${owner} = ?${withStatus ? ' AND status = ?' : ''}
       AND id ${order === 'asc' ? '>' : '<'} ? ORDER BY id ${order} LIMIT ?`,
    );
  const statements = {
    asc: { all: prepare(false, 'asc'), status: prepare(true, 'asc') },
    desc: { all: prepare(false, 'desc'), status: prepare(true, 'desc') },
  };
  return (ownerId, status, after, limit, order) => {
    const bound = after === '' && order === 'desc' ? PAST_EVERY_ID : after;
    const { all, status: withStatus } = statements[order];
    return status ? withStatus.all(ownerId, status, bound, limit) : all.all(ownerId, bound, limit);
  };
}

/** The latest run of one agent or workflow (its highest id); `at` is the SQL expression of when it was queued. */
export function latestRunOf(
  db: Database.Database,
  table: string,
  owner: string,
  at: string,
): (ownerId: string) => LatestRun | null {
  const statement = db.prepare<[string], LatestRun>(
    `SELECT id, status, ${at} AS at FROM ${table} WHERE ${owner} = ? ORDER BY id DESC LIMIT 1`,
  );
  return (ownerId) => statement.get(ownerId) ?? null;
}
