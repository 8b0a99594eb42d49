import { EventFilter, matchesFilter } from '../event-store/event-store';

/**
 * Which events of the log a subscriber asked for: any of `types`, in any of `streams` (empty: all); for read-only
 * keys, never webhooks' events (their URLs often carry tokens, and read keys may not see webhooks).
 */
export interface EventSelection {
  types: string[];
  streams: string[];
  withoutWebhooks?: boolean;
}

/** The streams of webhooks (`webhook-<id>`) and of their deliveries (`webhookdeliveries-<id>`). */
export const WEBHOOK_STREAM_PREFIXES = ['webhook-', 'webhookdeliveries-'];

/** What the store filters on (through its indexes, on SQLite). */
export function toStoreFilter(selection: EventSelection): EventFilter {
  return {
    eventTypes: selection.types,
    streams: selection.streams,
    ...(selection.withoutWebhooks ? { excludeStreamPrefixes: WEBHOOK_STREAM_PREFIXES } : {}),
  };
}

/** One key per filter shape: subscribers with the same selection share the work of filtering and encoding. */
export function selectionKey(selection: EventSelection): string {
  const types = [...selection.types].sort().join(',');
  const streams = [...selection.streams].sort().join(',');
  return `${types}|${streams}${selection.withoutWebhooks ? '|no-webhooks' : ''}`;
}

export function isSelected(selection: EventSelection, event: { type: string; stream: string }): boolean {
  return matchesFilter(event, toStoreFilter(selection));
}
