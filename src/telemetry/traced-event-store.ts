import { EventStore, NewEvent, StreamAppend } from '../event-store/event-store';
import { SpanKind, inSpan } from '../shared/trace-context';

/** The store with a span around each append (`event_store.append`) and each batch of them, while tracing is on. */
export function withAppendSpans(store: EventStore): EventStore {
  const append: EventStore['append'] = (stream, events, options) =>
    inSpan(`append ${categoryOf(stream)}`, attributesOf([{ stream, events }]), () =>
      store.append(stream, events, options),
    );
  const appendMultiple = store.appendMultiple?.bind(store);
  const appendBatch: EventStore['appendBatch'] = (appends) =>
    inSpan('append batch', batchAttributesOf(appends), () => store.appendBatch(appends));
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') return append;
      if (property === 'appendBatch') return appendBatch;
      if (property === 'appendMultiple' && appendMultiple) {
        return (appends: StreamAppend[]) =>
          inSpan(`append ${appends.map((a) => categoryOf(a.stream)).join(', ')}`, attributesOf(appends), () =>
            appendMultiple(appends),
          );
      }
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      // Bound once: the store's methods are read on every request.
      if (!bound.has(property)) bound.set(property, value.bind(target));
      return bound.get(property);
    },
  });
}

function attributesOf(appends: Array<{ stream: string; events: NewEvent[] }>) {
  let types = '';
  for (const { events } of appends) for (const event of events) types += types ? `,${event.type}` : event.type;
  return {
    'db.system.name': 'event_store',
    'db.operation.name': 'append',
    'event_store.streams': appends.length === 1 ? appends[0].stream : appends.map((a) => a.stream).join(','),
    'event_store.event_types': types,
  };
}

/** A batch (a tick's triggers) may hold thousands of appends: it is described by counts, not by its streams. */
function batchAttributesOf(appends: StreamAppend[][]) {
  let events = 0;
  for (const parts of appends) for (const part of parts) events += part.events.length;
  return {
    'db.system.name': 'event_store',
    'db.operation.name': 'append_batch',
    'event_store.batch.appends': appends.length,
    'event_store.batch.events': events,
  };
}

/** `agentrun-01J…` → `agentrun`: span names stay few, the stream is an attribute. */
function categoryOf(stream: string): string {
  const dash = stream.lastIndexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash);
}

export { SpanKind };
