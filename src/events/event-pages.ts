import { EventStore, EventText } from '../event-store/event-store';
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
 * A page of the log as the JSON text of an `EventLogPage`: bounded by `limit` events and by `maxBytes` of their
 * data (a page holds at least one event), made from the events' stored JSON without parsing it.
 */
export async function readEventLogPage(store: EventStore, query: EventLogQuery, maxBytes: number): Promise<string> {
  const { limit: maxCount, selection } = query;
  const filter = toStoreFilter(selection);
  if (query.descending) {
    const page = await store.readLogText({ direction: 'backward', before: query.before, maxCount, maxBytes, filter });
    const nextBefore = page.end ? null : page.cursor.toString();
    return pageJson(page.events, { nextBefore, more: !page.end });
  }
  const after = query.fromEnd ? await store.head() : query.after;
  const page = await store.readLogText({ direction: 'forward', after, maxCount, maxBytes, filter });
  const read = page.events.filter((event) => isSelected(selection, event));
  const nextAfter = after === undefined && page.cursor === 0n ? null : page.cursor.toString();
  return pageJson(read, { nextAfter, more: !page.end });
}

/** `{"events": [...], ...rest}`, the events' envelopes joined as they are. */
function pageJson(events: EventText[], rest: Omit<EventLogPage, 'events'>): string {
  const tail = JSON.stringify(rest).slice(1);
  return `{"events":[${events.map(envelopeJson).join(',')}]${tail === '}' ? '}' : `,${tail}`}`;
}

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
