import { EventFilter, RecordedEvent } from '../event-store/event-store';

/** Which events of the log a subscriber asked for: any of `types`, in any of `streams` (empty: all). */
export interface EventSelection {
  types: string[];
  streams: string[];
}

/** What the store filters on (through its indexes, on SQLite). */
export function toStoreFilter(selection: EventSelection): EventFilter {
  return { eventTypes: selection.types, streams: selection.streams };
}

/** One key per filter shape: subscribers with the same selection share the work of filtering and encoding. */
export function selectionKey(selection: EventSelection): string {
  return `${[...selection.types].sort().join(',')}|${[...selection.streams].sort().join(',')}`;
}

export function isSelected(selection: EventSelection, event: RecordedEvent): boolean {
  if (selection.types.length && !selection.types.includes(event.type)) return false;
  return !selection.streams.length || selection.streams.includes(event.stream);
}
