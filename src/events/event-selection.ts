import { EventFilter, RecordedEvent } from '../event-store/event-store';

/** Which events of the log a subscriber asked for: any of `types`, in any of `streams` (empty: all). */
export interface EventSelection {
  types: string[];
  streams: string[];
}

/** What the store can filter on: exact streams become prefixes there, so `isSelected` checks them again. */
export function toStoreFilter(selection: EventSelection): EventFilter {
  return { eventTypes: selection.types, streamPrefixes: selection.streams };
}

export function isSelected(selection: EventSelection, event: RecordedEvent): boolean {
  if (selection.types.length && !selection.types.includes(event.type)) return false;
  return !selection.streams.length || selection.streams.includes(event.stream);
}
