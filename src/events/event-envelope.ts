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
    data: event.data,
    metadata: {
      correlationId: event.metadata.correlationId ?? null,
      causationId: event.metadata.causationId ?? null,
      schemaVersion: event.metadata.schemaVersion ?? 1,
    },
    recordedAt: event.recordedAt.toISOString(),
  };
}
