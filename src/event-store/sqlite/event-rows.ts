import { EventFilter, EventJson, RecordedEvent } from '../event-store';

/** The columns of an event read as an array (better-sqlite3's raw mode, which skips building an object per row). */
export const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';
/** An event's row in raw mode, in the order of EVENT_COLUMNS, with its data and metadata as `Body`. */
type EventRow<Body> = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  data: Body,
  metadata: Body,
  recordedAt: number,
];
export type RawEventRow = EventRow<string>;
/** An event's position and the bytes of its data and metadata, read without loading either. */
export const SIZE_COLUMNS = 'position, octet_length(data) + octet_length(metadata)';
export type SizeRow = [number, number];

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
  const clauses = ['position > ?'];
  if (upTo !== undefined) clauses.push('position <= ?');
  const bounds = upTo === undefined ? [Number(after ?? 0n)] : [Number(after ?? 0n), Number(upTo)];
  const selected = filterClauses(filter);
  return {
    sql: `SELECT ${EVENT_COLUMNS} FROM events WHERE ${[...clauses, ...selected.clauses].join(' AND ')} ORDER BY position LIMIT ?`,
    params: [...bounds, ...selected.params, maxCount],
  };
}

/**
 * Events in (`lower`, `upper`] that pass the filter, ascending or descending, at most `maxCount`: a read whose
 * work is bounded by the stretch of positions, whatever the filter. Whole streams and types go through their
 * indexes (named, so that the planner never walks the table instead).
 */
export function windowQuery(
  lower: bigint,
  upper: bigint,
  descending: boolean,
  maxCount: number,
  filter?: EventFilter,
  columns = EVENT_COLUMNS,
): EventsQuery {
  const selected = filterClauses(filter);
  const index = filter?.streams?.length ? 'events_by_stream' : filter?.eventTypes?.length ? 'events_by_type' : '';
  const from = index ? `events INDEXED BY ${index}` : 'events';
  const where = ['position > ?', 'position <= ?', ...selected.clauses].join(' AND ');
  return {
    sql: `SELECT ${columns} FROM ${from} WHERE ${where} ORDER BY position ${descending ? 'DESC' : ''} LIMIT ?`,
    params: [Number(lower), Number(upper), ...selected.params, maxCount],
  };
}

function filterClauses(filter?: EventFilter): { clauses: string[]; params: Array<string | number> } {
  const prefixes = filter?.streamPrefixes ?? [];
  const streams = filter?.streams ?? [];
  const types = filter?.eventTypes ?? [];
  const excluded = filter?.excludeStreamPrefixes ?? [];
  const clauses = ["substr(type, 1, 1) <> '$'"];
  if (streams.length) clauses.push(`stream IN (${streams.map(() => '?').join(', ')})`);
  if (prefixes.length) clauses.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
  if (types.length) clauses.push(`type IN (${types.map(() => '?').join(', ')})`);
  for (const _prefix of excluded) clauses.push('substr(stream, 1, ?) <> ?');
  const prefixParams = (list: string[]) => list.flatMap((prefix) => [prefix.length, prefix]);
  return { clauses, params: [...streams, ...prefixParams(prefixes), ...types, ...prefixParams(excluded)] };
}

/** What an event read from its row is, whatever becomes of its data and metadata: the same for every read. */
function fromRow<Body, Bodies>(
  [position, id, stream, revision, type, data, metadata, recordedAt]: EventRow<Body>,
  bodies: (data: Body, metadata: Body) => Bodies,
) {
  return {
    id,
    type,
    stream,
    revision: BigInt(revision),
    position: BigInt(position),
    ...bodies(data, metadata),
    recordedAt: new Date(recordedAt),
  };
}

export function toRecorded(row: RawEventRow): RecordedEvent {
  return fromRow(row, (data, metadata) => ({ data: JSON.parse(data), metadata: JSON.parse(metadata) }));
}

/** The columns of an event with its data and metadata as bytes (SQLite hands a BLOB over without decoding it). */
export const EVENT_BYTES_COLUMNS =
  'position, id, stream, revision, type, CAST(data AS BLOB), CAST(metadata AS BLOB), recorded_at';
export type RawEventBytesRow = EventRow<Buffer>;

/** The row with its data and metadata left as the JSON stored. */
export function toJsonBytes(row: RawEventBytesRow): EventJson {
  return fromRow(row, (dataJson, metadataJson) => ({ dataJson, metadataJson }));
}
