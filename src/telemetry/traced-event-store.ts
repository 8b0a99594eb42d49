import { EventStore, NewEvent, StreamAppend } from '../event-store/event-store';
import { forwardingTo } from '../event-store/forwarding-to';
import { SpanKind, inLeafSpan } from '../shared/trace-context';

/**
 * The store with a span around each append (`event_store.append`) and each batch of them, while tracing is on. The
 * store starts no spans of its own: they are leaf spans, their context not entered.
 */
export function withAppendSpans(store: EventStore): EventStore {
  const traced = forwardingTo(store);
  const appendMultiple = store.appendMultiple?.bind(store);
  // Defined, not assigned: a member the store has as a getter (PrefixedEventStore's appendMultiple) is an accessor
  // on `traced` that writes through to the store, where an assignment would be lost.
  const own = <K extends 'append' | 'appendMultiple' | 'appendBatch' | 'appendPrepared'>(
    key: K,
    value: EventStore[K],
  ) => Object.defineProperty(traced, key, { value, writable: true, configurable: true, enumerable: true });
  own('append', (stream, events, options) =>
    inLeafSpan(`append ${categoryOf(stream)}`, appendAttributes(stream, events), () =>
      store.append(stream, events, options),
    ),
  );
  own(
    'appendMultiple',
    appendMultiple &&
      ((appends) =>
        inLeafSpan(`append ${categoriesOf(appends)}`, multipleAttributes(appends), () => appendMultiple(appends))),
  );
  own('appendBatch', (appends, expected) =>
    inLeafSpan('append batch', BATCH_ATTRIBUTES, (span) => {
      // Counted as the store reads them (once, within its call): the appends may be made as they are taken.
      const counts = { appends: 0, events: 0 };
      const outcomes = store.appendBatch(counting(appends, counts), expected);
      span.setAttributes({ 'event_store.batch.appends': counts.appends, 'event_store.batch.events': counts.events });
      return outcomes;
    }),
  );
  const appendPrepared = store.appendPrepared?.bind(store);
  own(
    'appendPrepared',
    appendPrepared &&
      ((prepared) =>
        inLeafSpan('append batch', BATCH_ATTRIBUTES, (span) => {
          span.setAttribute('event_store.batch.appends', countKept(prepared));
          span.setAttribute('event_store.batch.prepared', true);
          return appendPrepared(prepared);
        })),
  );
  return traced;
}

function countKept(prepared: Array<{ keep: boolean[] }>): number {
  let kept = 0;
  for (const { keep } of prepared) for (const k of keep) if (k) kept++;
  return kept;
}

function appendAttributes(stream: string, events: NewEvent[]) {
  let types = events.length === 1 ? events[0].type : '';
  if (events.length > 1) for (const event of events) types += types ? `,${event.type}` : event.type;
  return {
    'db.system.name': 'event_store',
    'db.operation.name': 'append',
    'event_store.streams': stream,
    'event_store.event_types': types,
  };
}

function multipleAttributes(appends: StreamAppend[]) {
  let streams = '';
  let types = '';
  for (const { stream, events } of appends) {
    streams += streams ? `,${stream}` : stream;
    for (const event of events) types += types ? `,${event.type}` : event.type;
  }
  return {
    'db.system.name': 'event_store',
    'db.operation.name': 'append',
    'event_store.streams': streams,
    'event_store.event_types': types,
  };
}

const BATCH_ATTRIBUTES = { 'db.system.name': 'event_store', 'db.operation.name': 'append_batch' };

/** A batch (a tick's triggers) may hold thousands of appends: it is described by counts, not by its streams. */
function* counting(
  appends: Iterable<StreamAppend[]>,
  counts: { appends: number; events: number },
): Iterable<StreamAppend[]> {
  for (const parts of appends) {
    counts.appends++;
    for (const part of parts) counts.events += part.events.length;
    yield parts;
  }
}

function categoriesOf(appends: StreamAppend[]): string {
  let names = '';
  for (const { stream } of appends) names += names ? `, ${categoryOf(stream)}` : categoryOf(stream);
  return names;
}

/** `agentrun-01J…` → `agentrun`: span names stay few, the stream is an attribute. */
function categoryOf(stream: string): string {
  const dash = stream.lastIndexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash);
}

export { SpanKind };
