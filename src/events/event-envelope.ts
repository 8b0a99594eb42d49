import { EventJson, RecordedEvent } from '../event-store/event-store';

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
    metadata: servedMetadata(event.metadata),
    recordedAt: event.recordedAt.toISOString(),
  };
}

/**
 * The envelope's JSON made from the event's stored JSON, with the same fields in the same order as `toEnvelope`:
 * the data goes out as the bytes the store holds, never decoded, parsed and encoded again, so a large event costs
 * a copy. Only events whose data the log serves in part (see `servedData`) are parsed, and they are small.
 */
export function envelopeJson(event: EventJson): Buffer {
  const data = servedInPart(event)
    ? Buffer.from(JSON.stringify(servedData({ type: event.type, data: parsed(event.dataJson) })))
    : event.dataJson;
  const metadata = parsed(event.metadataJson) as unknown as RecordedEvent['metadata'];
  const head =
    `{"id":${JSON.stringify(event.id)},"position":"${event.position}","type":${JSON.stringify(event.type)},` +
    `"stream":${JSON.stringify(event.stream)},"revision":"${event.revision}","data":`;
  const tail = `,"metadata":${JSON.stringify(servedMetadata(metadata))},"recordedAt":"${event.recordedAt.toISOString()}"}`;
  return Buffer.concat([Buffer.from(head), data, Buffer.from(tail)]);
}

function parsed(json: Buffer): Record<string, unknown> {
  return JSON.parse(json.toString()) as Record<string, unknown>;
}

function servedInPart(event: EventJson): boolean {
  return event.type === 'IdempotentRequestCompleted' || event.dataJson.includes('"encryptedSecret"');
}

function servedMetadata(metadata: RecordedEvent['metadata']): EventEnvelope['metadata'] {
  return {
    correlationId: metadata.correlationId ?? null,
    causationId: metadata.causationId ?? null,
    schemaVersion: metadata.schemaVersion ?? 1,
  };
}

/**
 * What of an event's data the log serves. The response an `Idempotency-Key` recorded is given back only to a
 * repeat of its request by the same caller: the log shows its status and headers, never its body, so read keys
 * (and anyone, without keys) cannot read other callers' responses through it. Webhooks' sealed secrets are left out.
 */
function servedData(event: Pick<RecordedEvent, 'type' | 'data'>): Record<string, unknown> {
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
