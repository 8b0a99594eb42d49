import { EventFilter, RecordedEvent } from '../event-store';

/** The columns of an event read as an array (better-sqlite3's raw mode, which skips building an object per row). */
export const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';
export type RawEventRow = [number, string, string, number, string, string, string, number];

/** A read of the log: the SELECT of EVENT_COLUMNS, and its parameters. */
export interface EventsQuery {
  sql: string;
  params: Array<string | number>;
}

/** Events after `after` (and no further than `upTo`, when given) that pass the filter, in order. */
export function eventsQuery(
  after: bigint | undefined,
  maxCount: number,
  filter?: EventFilter,
  upTo?: bigint,
): EventsQuery {
  const prefixes = filter?.streamPrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  const clauses = ['position > ?', "substr(type, 1, 1) <> '$'"];
  if (upTo !== undefined) clauses.push('position <= ?');
  if (prefixes.length) clauses.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
  if (types.length) clauses.push(`type IN (${types.map(() => '?').join(', ')})`);
  const bounds = upTo === undefined ? [Number(after ?? 0n)] : [Number(after ?? 0n), Number(upTo)];
  return {
    sql: `SELECT ${EVENT_COLUMNS} FROM events WHERE ${clauses.join(' AND ')} ORDER BY position LIMIT ?`,
    params: [...bounds, ...prefixes.flatMap((prefix) => [prefix.length, prefix]), ...types, maxCount],
  };
}

export function toRecorded([
  position,
  id,
  stream,
  revision,
  type,
  data,
  metadata,
  recordedAt,
]: RawEventRow): RecordedEvent {
  return {
    id,
    type,
    stream,
    revision: BigInt(revision),
    position: BigInt(position),
    data: JSON.parse(data),
    metadata: JSON.parse(metadata),
    recordedAt: new Date(recordedAt),
  };
}
