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

export async function readEventLogPage(
  store: EventStore,
  { after, limit, selection }: EventLogQuery,
): Promise<EventPage> {
  const events: RecordedEvent[] = [];
  let last = after;
  for (;;) {
    const wanted = limit - events.length;
    const read = await store.readAll({ after: last, maxCount: wanted, filter: toStoreFilter(selection) });
    events.push(...read.filter((event) => isSelected(selection, event)));
    if (read.length > 0) last = read[read.length - 1].position;
    // Only the exact-stream check can drop events the store returned; then the page is filled up.
    if (read.length < wanted || events.length >= limit) break;
  }
  return { events: events.map(toEnvelope), nextAfter: last?.toString() ?? null };
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
