import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/paging';
import { FieldError, ValidationFailed } from '../shared/validation-failed';
import { IdPrefix, isId } from '../shared/ids';
import { EventSelection } from './event-selection';

export type RawQuery = Record<string, string | string[] | undefined>;

export interface EventLogQuery {
  /** Exclusive: the position of the last event the client has. */
  after?: bigint;
  /** Exclusive, for pages read backwards: the position of the oldest event the client has. */
  before?: bigint;
  /** `from=end`: start after the log's last event. */
  fromEnd: boolean;
  /** `order=desc`: JSON pages newest first. */
  descending: boolean;
  limit: number;
  selection: EventSelection;
}

export interface HistoryQuery {
  /** Exclusive: the revision of the last event the client has. */
  after?: bigint;
  limit: number;
}

const EVENT_TYPE = /^[A-Z][A-Za-z0-9]{0,99}$/;
const STREAM = /^([a-z]+)-([A-Za-z0-9_]{1,100})$/;
/** The id prefix each stream category's ids have; other categories (e.g. `agentname`) are only checked for shape. */
const STREAM_ID_PREFIXES: Record<string, IdPrefix> = {
  agent: 'agent',
  agentrun: 'agentrun',
  workflow: 'wf',
  workflowrun: 'wfrun',
};
const MAX_VALUES = 100;

/**
 * `GET /v1/events`: `after` (or the `Last-Event-ID` header, which wins: a reconnecting browser sends it with the
 * original URL) or `from=end`, `order` (`desc` for JSON pages newest first, with `before`), `limit`, and `types`
 * and `stream`, each repeated or comma-separated. Bad values are a 400. `stream` (SSE) says it is a stream.
 */
export function parseEventLogQuery(
  query: RawQuery,
  options: { lastEventId?: string | string[]; stream?: boolean } = {},
): EventLogQuery {
  const errors: FieldError[] = [];
  refuseUnknown(query, ['after', 'before', 'from', 'order', 'limit', 'types', 'stream'], errors);
  const { lastEventId } = options;
  const fromHeader = lastEventId !== undefined && lastEventId !== '';
  const after = fromHeader
    ? decimal(lastEventId, 'Last-Event-ID', 'a position this stream sent as an id', errors)
    : decimal(query.after, 'after', 'a position (nextAfter or an event id from this route)', errors);
  const before = decimal(query.before, 'before', 'a position (nextBefore from this route)', errors);
  const from = single(query.from, 'from', errors);
  if (from !== undefined && from !== 'end') errors.push({ path: 'from', message: 'from must be end' });
  const order = single(query.order, 'order', errors) ?? 'asc';
  if (order !== 'asc' && order !== 'desc') errors.push({ path: 'order', message: 'order must be asc or desc' });
  const descending = order === 'desc';
  if (descending && options.stream)
    errors.push({ path: 'order', message: 'order=desc is for JSON pages; a stream goes forwards' });
  if (descending && query.after !== undefined)
    errors.push({ path: 'after', message: 'after pages forwards; with order=desc, pass before' });
  if (!descending && before !== undefined)
    errors.push({ path: 'before', message: 'before pages backwards: it needs order=desc' });
  if (from === 'end' && query.after !== undefined)
    errors.push({ path: 'from', message: 'from=end starts after the last event: give it or after, not both' });
  const types = list(query.types, 'types', errors, (type) =>
    EVENT_TYPE.test(type) ? undefined : 'must be event types such as WorkflowTriggered',
  );
  const streams = list(query.stream, 'stream', errors, streamProblem);
  const limit = parseLimit(query.limit, errors);
  if (errors.length) throw new ValidationFailed(errors);
  // Last-Event-ID (a reconnect) wins over from=end, as over after.
  const fromEnd = from === 'end' && !fromHeader;
  return { after, before, fromEnd, descending, limit, selection: { types, streams } };
}

/** The history routes: `after` (a revision in the stream) and `limit`. */
export function parseHistoryQuery(query: RawQuery): HistoryQuery {
  const errors: FieldError[] = [];
  refuseUnknown(query, ['after', 'limit'], errors);
  const after = decimal(query.after, 'after', 'a revision (nextAfter from this route)', errors);
  const limit = parseLimit(query.limit, errors);
  if (errors.length) throw new ValidationFailed(errors);
  return { after, limit };
}

function refuseUnknown(query: RawQuery, known: string[], errors: FieldError[]): void {
  for (const name of Object.keys(query)) {
    if (!known.includes(name)) errors.push({ path: name, message: 'is not a known parameter' });
  }
}

function single(value: string | string[] | undefined, path: string, errors: FieldError[]): string | undefined {
  if (!Array.isArray(value)) return value;
  errors.push({ path, message: `${path} must be given once` });
  return undefined;
}

function decimal(
  raw: string | string[] | undefined,
  path: string,
  what: string,
  errors: FieldError[],
): bigint | undefined {
  const value = single(raw, path, errors);
  if (value === undefined) return undefined;
  if (/^\d{1,20}$/.test(value) && BigInt(value) <= MAX_POSITION) return BigInt(value);
  errors.push({ path, message: `${path} must be ${what}: a decimal number below 2^64` });
  return undefined;
}

/** Positions are unsigned 64-bit numbers on both stores. */
const MAX_POSITION = 0xffffffffffffffffn;

function parseLimit(raw: string | string[] | undefined, errors: FieldError[]): number {
  const value = single(raw, 'limit', errors);
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (limit >= 1 && limit <= MAX_LIMIT) return limit;
  errors.push({ path: 'limit', message: `limit must be an integer from 1 to ${MAX_LIMIT}` });
  return DEFAULT_LIMIT;
}

/** Repeated and comma-separated values alike; empty items are ignored. */
function list(
  raw: string | string[] | undefined,
  path: string,
  errors: FieldError[],
  problemOf: (value: string) => string | undefined,
): string[] {
  if (raw === undefined) return [];
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((item) => item.split(',').map((part) => part.trim()));
  const values = [...new Set(items.filter(Boolean))];
  if (values.length > MAX_VALUES) errors.push({ path, message: `${path} takes at most ${MAX_VALUES} values` });
  for (const value of values) {
    const problem = problemOf(value);
    if (problem) errors.push({ path, message: `"${value}": ${problem}` });
  }
  return values;
}

function streamProblem(stream: string): string | undefined {
  const match = STREAM.exec(stream);
  if (!match) return 'must be a stream name such as workflow-wf_<ULID>';
  const prefix = STREAM_ID_PREFIXES[match[1]];
  if (prefix && !isId(prefix, match[2])) return `must be ${match[1]}-${prefix}_ followed by a 26-character ULID`;
  return undefined;
}
