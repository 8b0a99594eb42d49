import { RecordedEvent } from '../event-store/event-store';

/** An event as subscribers see it (GET /v1/events, the history routes): positions and revisions as decimal strings. */
export interface EventEnvelope {
  /** The event's own id (a UUID), the same on EventStoreDB. */
  id: string;
  /** Global position in the log: opaque, increasing; pass it back as `after` or `Last-Event-ID`. */
  position: string;
  type: string;
  stream: string;
  /** 0-based index of the event in its stream. */
  revision: string;
  data: Record<string, unknown>;
  metadata: { correlationId: string | null; causationId: string | null; schemaVersion: number };
  recordedAt: string;
}

export function toEnvelope(event: RecordedEvent): EventEnvelope {
  return {
    id: event.id,
    position: event.position.toString(),
    type: event.type,
    stream: event.stream,
    revision: event.revision.toString(),
    data: servedData(event),
    metadata: {
      correlationId: event.metadata.correlationId ?? null,
      causationId: event.metadata.causationId ?? null,
      schemaVersion: event.metadata.schemaVersion ?? 1,
    },
    recordedAt: event.recordedAt.toISOString(),
  };
}

/**
 * What of an event's data the log serves. The response an `Idempotency-Key` recorded is given back only to a
 * repeat of its request by the same caller: the log shows its status and headers, never its body, so read keys
 * (and anyone, without keys) cannot read other callers' responses through it. Webhooks' sealed secrets are left out.
 */
function servedData(event: RecordedEvent): Record<string, unknown> {
  if ('encryptedSecret' in event.data) {
    // A webhook's signing secret, encrypted: of no use to a reader, and left out all the same.
    const { encryptedSecret: _secret, ...rest } = event.data;
    return rest;
  }
  if (event.type !== 'IdempotentRequestCompleted') return event.data;
  const { response, ...rest } = event.data as { response?: { body?: unknown } };
  if (!response || typeof response !== 'object') return event.data;
  const { body: _body, ...described } = response;
  return { ...rest, response: described };
}
