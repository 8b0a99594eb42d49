import { EventStore, RecordedEvent } from '../event-store/event-store';
import { EventEnvelope, toEnvelope } from './event-envelope';
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

export async function readEventLogPage(store: EventStore, query: EventLogQuery): Promise<EventLogPage> {
  const { limit, selection } = query;
  const filter = toStoreFilter(selection);
  if (query.descending) {
    const page = await store.readLogPage({ direction: 'backward', before: query.before, maxCount: limit, filter });
    return {
      events: page.events.map(toEnvelope),
      nextBefore: page.end ? null : page.cursor.toString(),
      more: !page.end,
    };
  }
  const after = query.fromEnd ? await store.head() : query.after;
  const page = await store.readLogPage({ direction: 'forward', after, maxCount: limit, filter });
  const read = page.events.filter((event: RecordedEvent) => isSelected(selection, event));
  const nextAfter = after === undefined && page.cursor === 0n ? null : page.cursor.toString();
  return { events: read.map(toEnvelope), nextAfter, more: !page.end };
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
