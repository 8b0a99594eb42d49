import { EventStore, EventJson } from '../event-store/event-store';
import { EventEnvelope, envelopeJson, toEnvelope } from './event-envelope';
import { EventLogQuery, HistoryQuery } from './event-query';
import { isSelected, toStoreFilter } from './event-selection';

/**
 * A JSON page of events. `nextAfter` is what to pass as `after` for the next page: the position (or, in a
 * stream's history, the revision) of the last event read, or the `after` given when there was none.
 * A page shorter than `limit` holds everything there is for now.
 */
export interface EventPage {
  events: EventEnvelope[];
  nextAfter: string | null;
}

/**
 * A page of the log: forwards `nextAfter` is where the read stopped, backwards (`order=desc`) `nextBefore` is.
 * Each read looks at a bounded stretch of the log, so a filtered page may hold fewer events than `limit` (none,
 * even) while `more` says older (backwards) or newer (forwards) events may follow.
 */
export interface EventLogPage {
  events: EventEnvelope[];
  nextAfter?: string | null;
  nextBefore?: string | null;
  more: boolean;
}

/**
 * A page of the log as the JSON of an `EventLogPage`: bounded by `limit` events and by `maxBytes` of their data
 * (a page holds at least one event), made from the events' stored JSON bytes without decoding or parsing them.
 */
export async function readEventLogPage(store: EventStore, query: EventLogQuery, maxBytes: number): Promise<Buffer> {
  const { limit: maxCount, selection } = query;
  const filter = toStoreFilter(selection);
  if (query.descending) {
    const page = await store.readLogJson({ direction: 'backward', before: query.before, maxCount, maxBytes, filter });
    const nextBefore = page.end ? null : page.cursor.toString();
    return pageJson(page.events, { nextBefore, more: !page.end });
  }
  const after = query.fromEnd ? await store.head() : query.after;
  const page = await store.readLogJson({ direction: 'forward', after, maxCount, maxBytes, filter });
  const read = page.events.filter((event) => isSelected(selection, event));
  const nextAfter = after === undefined && page.cursor === 0n ? null : page.cursor.toString();
  return pageJson(read, { nextAfter, more: !page.end });
}

/** `{"events": [...], ...rest}`, the events' envelopes joined as they are. */
function pageJson(events: EventJson[], rest: Omit<EventLogPage, 'events'>): Buffer {
  const parts: Buffer[] = [Buffer.from('{"events":[')];
  events.forEach((event, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(envelopeJson(event));
  });
  parts.push(Buffer.from(`],${JSON.stringify(rest).slice(1)}`));
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(',');

export async function readStreamPage(
  store: EventStore,
  stream: string,
  { after, limit }: HistoryQuery,
): Promise<EventPage> {
  const { events } = await store.readStream(stream, {
    fromRevision: after === undefined ? 0n : after + 1n,
    maxCount: limit,
  });
  const last = events.length > 0 ? events[events.length - 1].revision : after;
  return { events: events.map(toEnvelope), nextAfter: last?.toString() ?? null };
}
