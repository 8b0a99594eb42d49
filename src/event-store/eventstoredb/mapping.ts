import {
  ANY,
  AppendExpectedRevision,
  EventData,
  JSONType,
  NO_STREAM,
  ResolvedEvent,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import {
  ConcurrencyError,
  EventFilter,
  EventMetadata,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoreUnavailableError,
  matchesFilter,
} from '../event-store';

/** Translation between our envelope and `@eventstore/db-client`'s types. */

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: { ...event.metadata } });
}

/** Undefined for an unresolved link, which carries no event of its own. */
export function toRecorded(resolved: ResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  return {
    id: event.id,
    type: event.type,
    stream: event.streamId,
    revision: event.revision,
    // Servers before 22.6 send no position on stream reads.
    position: event.position?.commit ?? resolved.commitPosition ?? -1n,
    data: isRecord(event.data) ? event.data : {},
    metadata: toMetadata(event.metadata),
    recordedAt: event.created,
  };
}

/** What readAll and subscribe hand out: never `$`-typed events nor events of `$`-streams. */
export function isVisible(event: RecordedEvent, filter?: EventFilter): boolean {
  return !event.stream.startsWith('$') && matchesFilter(event, filter);
}

/** A delete that found its stream gone, or never written: it is deleted all the same (a retry after a failure). */
export function deletedAlready(error: unknown): boolean {
  return error instanceof StreamNotFoundError || error instanceof StreamDeletedError;
}

export function toStoreError(
  error: unknown,
  what: string,
  append?: { stream: string; expected: ExpectedRevision },
): Error {
  if (error instanceof ConcurrencyError || error instanceof StoreUnavailableError) return error;
  if (error instanceof WrongExpectedVersionError && append) {
    return new ConcurrencyError(append.stream, append.expected, error.actualVersion);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`EventStoreDB ${what} failed: ${reason}`, { cause: error });
}

/** `eventstoredb (host:port)`, whatever credentials the connection string carries. */
export function describeConnection(url: string): string {
  const afterScheme = url.includes('://') ? url.slice(url.indexOf('://') + 3) : url;
  // Credentials end at the last '@', and a password may itself contain '@', '/' or '?'.
  const hosts = afterScheme.slice(afterScheme.lastIndexOf('@') + 1).split(/[/?#]/)[0];
  return `eventstoredb (${hosts || 'unknown host'})`;
}

function toMetadata(raw: unknown): EventMetadata {
  const value = isRecord(raw) ? raw : {};
  const metadata: EventMetadata = { schemaVersion: typeof value.schemaVersion === 'number' ? value.schemaVersion : 1 };
  if (typeof value.correlationId === 'string') metadata.correlationId = value.correlationId;
  if (typeof value.causationId === 'string') metadata.causationId = value.causationId;
  if (typeof value.traceparent === 'string') metadata.traceparent = value.traceparent;
  if (typeof value.subject === 'string') metadata.subject = value.subject;
  return metadata;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
