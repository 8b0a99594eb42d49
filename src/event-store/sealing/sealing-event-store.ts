import {
  EventStore,
  LogJsonPage,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  StreamSnapshot,
  SubscriptionHandler,
} from '../event-store';
import { forwardingTo } from '../forwarding-to';
import { subjectOfNamespace, subjectsOfAnswer } from './answer-subjects';
import { SEALED_FIELDS, subjectNamed } from './sealed-fields';
import { FORGOTTEN, isSealed, keyIdOf, open, replaceAt, seal } from './sealed-values';
import { SubjectKeys } from './subject-keys';

const SEALED_MARK = Buffer.from('"$sealed"');

/**
 * The store, with the content of events about a subject sealed under the subject's data key as it is appended, and
 * opened as it is read (every read: streams, the log, its pages and their JSON, subscriptions, snapshots). Once the
 * subject's keys are destroyed, that content reads as `{"forgotten": true}` wherever it is read from; nothing else of
 * the log changes. An event is about a subject when it names one (a run's `context.subjectId`, a thread's
 * `subjectId`), when its stream is (its first such event bound it), when it is a run on a subject's thread or a
 * child of a subject's run, when it puts a memory item in a namespace bound to a subject, or when it keeps an answer
 * for `Idempotency-Key` repeats that is about one.
 */
export function withSealing(store: EventStore, keys: SubjectKeys): EventStore {
  const sealing = forwardingTo(store);
  const own = <K extends keyof EventStore>(key: K, value: EventStore[K]) =>
    Object.defineProperty(sealing, key, { value, writable: true, configurable: true, enumerable: true });
  const sealAppend = ({ stream, events, expected }: StreamAppend): StreamAppend => ({
    stream,
    events: sealed(stream, events, keys),
    expected,
  });
  const openAll = (events: RecordedEvent[]) => events.map((event) => opened(event, keys));

  own('append', (stream, events, options) => store.append(stream, sealed(stream, events, keys), options));
  const appendMultiple = store.appendMultiple?.bind(store);
  own('appendMultiple', appendMultiple && ((appends) => appendMultiple(appends.map(sealAppend))));
  own('appendBatch', (appends, expected) =>
    store.appendBatch(
      (function* () {
        for (const command of appends) yield command.map(sealAppend);
      })(),
      expected,
    ),
  );
  // Sealed as they are prepared: never forwarded as they are, which would store a subject's content in the clear.
  const prepareBatch = store.prepareBatch?.bind(store);
  own(
    'prepareBatch',
    prepareBatch &&
      ((appends, more) =>
        prepareBatch(
          appends.map((command) => command.map(sealAppend)),
          more,
        )),
  );
  own('readStream', async (stream, options) => {
    const read = await store.readStream(stream, options);
    return { exists: read.exists, events: openAll(read.events) };
  });
  own('readAll', async (options) => openAll(await store.readAll(options)));
  own('readLogPage', async (request) => {
    const page = await store.readLogPage(request);
    return { ...page, events: openAll(page.events) };
  });
  own('readLogJson', async (request): Promise<LogJsonPage> => {
    const page = await store.readLogJson(request);
    return { ...page, events: page.events.map((event) => openedJson(event, keys)) };
  });
  own('subscribe', (options, handler: SubscriptionHandler) =>
    store.subscribe(options, { ...handler, onEvents: (events) => handler.onEvents(openAll(events)) }),
  );
  own('writeSnapshot', (stream, snapshot) => {
    const subject = keys.subjectOfStream(stream);
    if (!subject) return store.writeSnapshot(stream, snapshot);
    const { keyId, key } = keys.currentKey(subject);
    const state = seal(snapshot.state, keyId, key, snapshotPlace(stream, snapshot));
    return store.writeSnapshot(stream, { ...snapshot, state });
  });
  own('readSnapshot', async (stream) => {
    const snapshot = await store.readSnapshot(stream);
    if (!snapshot || !isSealed(snapshot.state)) return snapshot;
    const state = open(snapshot.state, keys.key(keyIdOf(snapshot.state)), snapshotPlace(stream, snapshot));
    // The subject is forgotten: the stream's events are read instead, their content forgotten too.
    return state === FORGOTTEN ? undefined : { ...snapshot, state };
  });
  return sealing;
}

const snapshotPlace = (stream: string, snapshot: StreamSnapshot) => `snapshot ${stream} ${snapshot.revision}`;

/** The events, those about a subject copied with their content sealed and the subject in their metadata. */
function sealed(stream: string, events: NewEvent[], keys: SubjectKeys): NewEvent[] {
  const subject = subjectOf(stream, events, keys);
  if (!subject) return events;
  keys.bindStream(stream, subject);
  return events.map((event) => {
    const paths = SEALED_FIELDS[event.type];
    const metadata = { ...event.metadata, subject };
    if (!paths) return { ...event, metadata };
    // Content about several subjects (a kept answer can be) is sealed under each key in turn: any one forgets it.
    const layers = [subject, ...alsoAbout(event, keys).filter((other) => other !== subject)].map((s) =>
      keys.currentKey(s),
    );
    const data = JSON.parse(JSON.stringify(event.data)) as Record<string, unknown>;
    replaceAt(data, paths, (value, place) =>
      layers.reduce<unknown>((inner, { keyId, key }) => seal(inner, keyId, key, `${event.id} ${place}`), value),
    );
    return { ...event, data, metadata };
  });
}

function subjectOf(stream: string, events: NewEvent[], keys: SubjectKeys): string | undefined {
  for (const { type, data } of events) {
    const named = subjectNamed(type, data);
    if (named) return named;
  }
  const known = keys.subjectOfStream(stream);
  if (known) return known;
  for (const event of events) {
    const { type, data } = event;
    if (type === 'AgentRunQueued') {
      // A run on a subject's thread, or a child (or handoff) of a subject's run.
      const via = data.threadId
        ? `thread-${String(data.threadId)}`
        : data.parentRunId
          ? `agentrun-${String(data.parentRunId)}`
          : undefined;
      const inherited = via ? keys.subjectOfStream(via) : null;
      if (inherited) return inherited;
    }
    if (type === 'MemoryItemPut' && typeof data.namespace === 'string') {
      const bound = subjectOfNamespace(data.namespace, keys);
      if (bound) return bound;
    }
    const [answered] = alsoAbout(event, keys);
    if (answered) return answered;
  }
  return undefined;
}

/** The subjects an answer kept for `Idempotency-Key` repeats is about (see answer-subjects.ts). */
function alsoAbout({ type, data }: NewEvent, keys: SubjectKeys): string[] {
  if (type !== 'IdempotentRequestCompleted') return [];
  return subjectsOfAnswer((data.response as { body?: unknown } | undefined)?.body, keys);
}

/** A sealed value opened, each layer in turn; FORGOTTEN once any of its keys is gone. */
function openedValue(value: unknown, keys: SubjectKeys, place: string): unknown {
  let inner = value;
  while (isSealed(inner)) inner = open(inner, keys.key(keyIdOf(inner)), place);
  return inner;
}

/** The event with its sealed content opened (in place: the store made the object for this read). */
function opened(event: RecordedEvent, keys: SubjectKeys): RecordedEvent {
  const paths = event.metadata.subject ? SEALED_FIELDS[event.type] : undefined;
  if (!paths) return event;
  replaceAt(event.data, paths, (value, place) => openedValue(value, keys, `${event.id} ${place}`));
  return event;
}

/** The same for an event as JSON: only one with a sealed value in it is parsed and written again. */
function openedJson(event: LogJsonPage['events'][number], keys: SubjectKeys): LogJsonPage['events'][number] {
  const paths = SEALED_FIELDS[event.type];
  if (!paths || !event.dataJson.includes(SEALED_MARK)) return event;
  const data = JSON.parse(event.dataJson.toString('utf8')) as Record<string, unknown>;
  replaceAt(data, paths, (value, place) => openedValue(value, keys, `${event.id} ${place}`));
  return { ...event, dataJson: Buffer.from(JSON.stringify(data)) };
}
