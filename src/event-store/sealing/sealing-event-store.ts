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
import { KeyStreams } from './key-streams';
import { loadKeysFor, learnFrom } from './shared-sealing';
import { SubjectKeys } from './subject-keys';

const SEALED_MARK = Buffer.from('"$sealed"');

/**
 * The store, with the content of events about a subject sealed under the subject's data key as it is appended, and
 * opened as it is read (every read: streams, the log, its pages and their JSON, subscriptions, snapshots). Once the
 * subject's keys are destroyed, that content reads as `{"forgotten": true}` wherever it is read from; nothing else of
 * the log changes. An event is about a subject when it names one (a run's `context.subjectId`, a thread's
 * `subjectId`), when its stream is (its first such event bound it), when it is a run on a subject's thread or a
 * child of a subject's run, when it puts a memory item in a namespace bound to a subject, or when it keeps an answer
 * for `Idempotency-Key` repeats that is about one. With `shared` (EventStoreDB, where instances share the store),
 * the keys an append or a read needs are made or fetched through the store first (see key-streams.ts).
 */
export function withSealing(store: EventStore, keys: SubjectKeys, shared?: KeyStreams): EventStore {
  const sealing = forwardingTo(store);
  const own = <K extends keyof EventStore>(key: K, value: EventStore[K]) =>
    Object.defineProperty(sealing, key, { value, writable: true, configurable: true, enumerable: true });
  const sealAppend = ({ stream, events, expected }: StreamAppend): StreamAppend => ({
    stream,
    events: sealed(stream, events, keys),
    expected,
  });
  /** With shared keys, the subjects' keys are made or fetched first; with one instance's own, nothing waits. */
  const whenReady = <T>(appends: StreamAppend[], then: () => Promise<T>): Promise<T> =>
    shared
      ? shared.ready(appends.flatMap(({ stream, events }) => subjectsAbout(stream, events, keys))).then(then)
      : then();
  const openAll = (events: RecordedEvent[]) => events.map((event) => opened(event, keys));
  /** The events opened: with shared keys, after learning from them and fetching the keys they need. */
  const opening = async (events: RecordedEvent[], fromLog = false): Promise<RecordedEvent[]> => {
    if (!shared) return openAll(events);
    learnFrom(events, keys, fromLog);
    await loadKeysFor(
      events.filter((event) => event.metadata.subject),
      keys,
      shared,
    );
    return openAll(events);
  };

  own('append', (stream, events, options) =>
    whenReady([{ stream, events, expected: options.expected }], () =>
      store.append(stream, sealed(stream, events, keys), options),
    ),
  );
  const appendMultiple = store.appendMultiple?.bind(store);
  own(
    'appendMultiple',
    appendMultiple && ((appends) => whenReady(appends, () => appendMultiple(appends.map(sealAppend)))),
  );
  own('appendBatch', (appends, expected) => {
    if (!shared) {
      const each = (function* () {
        for (const command of appends) yield command.map(sealAppend);
      })();
      return store.appendBatch(each, expected);
    }
    // The keys are made or fetched for the whole batch before any of it is sealed.
    return Promise.resolve()
      .then(() => [...appends])
      .then((commands) =>
        whenReady(commands.flat(), () =>
          store.appendBatch(
            commands.map((command) => command.map(sealAppend)),
            expected,
          ),
        ),
      );
  });
  // Sealed as they are prepared: never forwarded as they are, which would store a subject's content in the clear.
  // Only the embedded store prepares, and its keys are never shared.
  const prepareBatch = shared ? undefined : store.prepareBatch?.bind(store);
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
    return { exists: read.exists, events: await opening(read.events) };
  });
  own('readAll', async (options) => opening(await store.readAll(options)));
  own('readLogPage', async (request) => {
    const page = await store.readLogPage(request);
    return { ...page, events: await opening(page.events) };
  });
  own('readLogJson', async (request): Promise<LogJsonPage> => {
    const page = await store.readLogJson(request);
    const parsed = page.events.map((event) => ({ event, data: sealedData(event) }));
    if (shared) {
      const sealedOnes = parsed.flatMap(({ event, data }) => (data ? [{ id: event.id, type: event.type, data }] : []));
      await loadKeysFor(sealedOnes, keys, shared);
    }
    return { ...page, events: parsed.map(({ event, data }) => (data ? openedJson(event, data, keys) : event)) };
  });
  own('subscribe', (options, handler: SubscriptionHandler) =>
    store.subscribe(options, {
      ...handler,
      onEvents: shared
        ? async (events) => handler.onEvents(await opening(events, true))
        : (events) => handler.onEvents(openAll(events)),
    }),
  );
  own('writeSnapshot', async (stream, snapshot) => {
    const subject = keys.subjectOfStream(stream);
    if (!subject) return store.writeSnapshot(stream, snapshot);
    await shared?.ready([subject]);
    const { keyId, key } = keys.currentKey(subject);
    const state = seal(snapshot.state, keyId, key, snapshotPlace(stream, snapshot));
    return store.writeSnapshot(stream, { ...snapshot, state });
  });
  own('readSnapshot', async (stream) => {
    const snapshot = await store.readSnapshot(stream);
    if (!snapshot || !isSealed(snapshot.state)) return snapshot;
    await shared?.load([keyIdOf(snapshot.state)]);
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

/** Every subject whose key sealing these events takes: the one they are about, and those of a kept answer. */
function subjectsAbout(stream: string, events: NewEvent[], keys: SubjectKeys): string[] {
  const subject = subjectOf(stream, events, keys);
  return subject ? [subject, ...events.flatMap((event) => alsoAbout(event, keys))] : [];
}

/** The subjects an answer kept for `Idempotency-Key` repeats is about (see answer-subjects.ts). */
function alsoAbout({ type, data }: NewEvent, keys: SubjectKeys): string[] {
  if (type !== 'IdempotentRequestCompleted') return [];
  return subjectsOfAnswer((data.response as { body?: unknown } | undefined)?.body, keys);
}

/**
 * A sealed value opened; FORGOTTEN once its key is gone. A kept answer's may be sealed under several keys, opened in
 * turn; any other is opened once, so that content that merely looks sealed is given back as it was.
 */
function openedValue(value: unknown, keys: SubjectKeys, type: string, place: string): unknown {
  let inner = value;
  do {
    if (!isSealed(inner)) return inner;
    inner = open(inner, keys.key(keyIdOf(inner)), place);
  } while (type === 'IdempotentRequestCompleted');
  return inner;
}

/** The event with its sealed content opened (in place: the store made the object for this read). */
function opened(event: RecordedEvent, keys: SubjectKeys): RecordedEvent {
  const paths = event.metadata.subject ? SEALED_FIELDS[event.type] : undefined;
  if (!paths) return event;
  replaceAt(event.data, paths, (value, place) => openedValue(value, keys, event.type, `${event.id} ${place}`));
  return event;
}

/** The data of an event as JSON, parsed when a sealed value is in it; undefined when there is nothing to open. */
function sealedData(event: LogJsonPage['events'][number]): Record<string, unknown> | undefined {
  if (!SEALED_FIELDS[event.type] || !event.dataJson.includes(SEALED_MARK)) return undefined;
  return JSON.parse(event.dataJson.toString('utf8')) as Record<string, unknown>;
}

/** The same as `opened` for an event as JSON: only one with a sealed value in it is parsed and written again. */
function openedJson(
  event: LogJsonPage['events'][number],
  data: Record<string, unknown>,
  keys: SubjectKeys,
): LogJsonPage['events'][number] {
  replaceAt(data, SEALED_FIELDS[event.type], (value, place) =>
    openedValue(value, keys, event.type, `${event.id} ${place}`),
  );
  return { ...event, dataJson: Buffer.from(JSON.stringify(data)) };
}
