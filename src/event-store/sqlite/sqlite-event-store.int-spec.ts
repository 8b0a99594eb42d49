import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describeEventStoreContract } from '../event-store.contract';
import { LogReads, PAGE_SCAN_LIMIT } from './log-reads';
import { SqliteEventStore } from './sqlite-event-store';
import { windowQuery } from './event-rows';
import { BatchEncoder } from './batch-encoder';
import Database from 'better-sqlite3';
import { EventStore, RecordedEvent, StoreUnavailableError } from '../event-store';
import { eventually } from '../../../test/support/eventually';

/** The store's reads of the log on its own thread, which the tests watch. */
const logReadsOf = (store: SqliteEventStore) => (store as unknown as { logReads: LogReads }).logReads;

const folders = new Map<EventStore, string>();

describeEventStoreContract(
  'sqlite',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'es-contract-'));
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 20 });
    folders.set(store, folder);
    return store;
  },
  async (store) => {
    await store.close();
    rmSync(folders.get(store)!, { recursive: true, force: true });
    folders.delete(store);
  },
);

describe('sqlite event store', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'es-sqlite-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('fails an append as unavailable (a 503), not as an unknown error, when another connection holds the write lock', async () => {
    const file = join(folder, 'events.sqlite');
    const store = new SqliteEventStore({ file, busyTimeoutMs: 20 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const event = { id: randomUUID(), type: 'Tested', data: {}, metadata: { schemaVersion: 1 } };
    await expect(store.append('locked-1', [event], { expected: 'no_stream' })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    other.exec('ROLLBACK');
    other.close();
    await store.close();
  });

  const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } });

  it('keeps the process alive only while a commit is in flight, so a store left open never hangs an exit', async () => {
    const ports = () => process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
    const before = ports();
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    expect(ports()).toBe(before);
    const appended = store.append('alive-1', [event('A')], { expected: 'no_stream' });
    expect(ports()).toBeGreaterThan(before);
    await appended;
    expect(ports()).toBe(before);
    await store.close();
  });

  it('keeps events across reopening the file', async () => {
    const file = join(folder, 'events.sqlite');
    const first = new SqliteEventStore({ file });
    await first.append('s-1', [event('A')], { expected: 'no_stream' });
    await first.close();
    const second = new SqliteEventStore({ file });
    expect((await second.readStream('s-1')).events.map((e) => e.type)).toEqual(['A']);
    await second.close();
  });

  it('writes a snapshot through the writer, which close() waits for, in the same file as the events', async () => {
    const file = join(folder, 'events.sqlite');
    const first = new SqliteEventStore({ file });
    await first.append('s-1', [event('A')], { expected: 'no_stream' });
    const written = first.writeSnapshot('s-1', { revision: 0n, schemaVersion: 2, state: { a: 1 } });
    await first.close();
    await written;
    const second = new SqliteEventStore({ file });
    expect(await second.readSnapshot('s-1')).toEqual({ revision: 0n, schemaVersion: 2, state: { a: 1 } });
    await expect(second.writeSnapshot('s-1', { revision: 1n, schemaVersion: 2, state: 1n })).rejects.toThrow('BigInt');
    await second.close();
  });

  it('writes the snapshots made in one turn of the event loop in one message to the writer', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const writer = (store as unknown as { writer: { worker: { postMessage(message: object): void } } }).writer.worker;
    const posted = jest.spyOn(writer, 'postMessage');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.writeSnapshot(`s-${i}`, { revision: 1n, schemaVersion: 1, state: i })),
    );
    expect(posted.mock.calls.filter(([message]) => 'snapshots' in message)).toHaveLength(1);
    expect(await store.readSnapshot('s-49')).toEqual({ revision: 1n, schemaVersion: 1, state: 49 });
    await store.close();
  });

  it('never returns system events from the global log', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    await store.append('s-1', [event('$metadata'), event('A')], { expected: 'no_stream' });
    expect((await store.readAll()).map((e) => e.type)).toEqual(['A']);
    await store.close();
  });

  it('writes a batch in one commit even when the writer is idle, and at once when it is busy, in the next', async () => {
    let ticks = 0;
    // Each commit takes the time when it is sent: a clock that moves on every call tells commits apart.
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), now: () => new Date(++ticks * 1000) });
    const batch = (name: string, n: number) =>
      Array.from({ length: n }, (_, i) => [
        { stream: `${name}-${i}`, events: [event('A')], expected: 'no_stream' as const },
      ]);
    const first = await store.appendBatch(batch('idle', 50));
    const busy = store.append('lone-1', [event('B')], { expected: 'no_stream' });
    const second = store.appendBatch(batch('busy', 50));
    await busy;
    const outcomes = [...first, ...(await second)];
    expect(outcomes.filter((outcome) => 'error' in outcome)).toEqual([]);
    const events = await store.readAll({ after: 0n, maxCount: 1000 });
    const commitTimes = (prefix: string) =>
      new Set(events.filter((e) => e.stream.startsWith(prefix)).map((e) => e.recordedAt.getTime()));
    expect(commitTimes('idle-').size).toBe(1);
    expect(commitTimes('lone-')).toEqual(new Set([2000])); // sent alone, at once
    expect(commitTimes('busy-')).toEqual(new Set([3000])); // the whole batch in the next commit
    await store.close();
  });

  it('commits appends grouped together independently: one failing half-way leaves no trace, the others land', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const taken = event('A');
    await store.append('s-0', [taken], { expected: 'no_stream' });
    const outcomes = await Promise.allSettled([
      store.append('s-1', [event('B')], { expected: 'no_stream' }),
      store.append('s-2', [event('C'), taken], { expected: 'no_stream' }), // its second id is already stored
      store.append('s-3', [event('D')], { expected: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.readAll()).map((e) => `${e.stream}:${e.type}`)).toEqual(['s-0:A', 's-1:B', 's-3:D']);
    await store.close();
  });

  it('undoes an append of several events that fails after its checks (an id twice), and lands the others of its commit', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    await store.append('s-0', [event('A')], { expected: 'no_stream' });
    const twice = event('C');
    const outcomes = await Promise.allSettled([
      store.append('s-1', [event('B')], { expected: 'no_stream' }),
      store.appendMultiple([
        { stream: 's-2', events: [event('D')], expected: 'no_stream' },
        { stream: 's-3', events: [twice, event('E'), twice], expected: 'no_stream' },
      ]),
      store.appendMultiple([
        { stream: 's-4', events: [event('F'), event('G')], expected: 'no_stream' },
        { stream: 's-0', events: [event('H')], expected: 0n },
      ]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.readAll()).map((e) => `${e.stream}:${e.type}`)).toEqual([
      's-0:A',
      's-1:B',
      's-4:F',
      's-4:G',
      's-0:H',
    ]);
    await store.close();
  });

  it('keeps text in any script as given, across a commit of several appends and to a live subscription', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const handed: RecordedEvent[] = [];
    const subscription = store.subscribe({}, { onEvents: (events) => void handed.push(...events) });
    const texts = ['plain', 'Grüße, naïve café', '東京の天気 🌦️', '"quoted" \\ back\nslash', '𝄞 \u2028 end'];
    const appended = await Promise.all(
      texts.map((text, i) =>
        store.appendMultiple([
          { stream: `s-${i}-ü`, events: [{ ...event('T'), data: { text } }], expected: 'no_stream' },
          { stream: `t-${i}`, events: [{ ...event('U'), data: { text: text.repeat(2) } }], expected: 'no_stream' },
        ]),
      ),
    );
    expect(appended).toHaveLength(texts.length);
    const read = await store.readAll();
    expect(read.map((e) => [e.stream, e.data])).toEqual(
      texts.flatMap((text, i) => [
        [`s-${i}-ü`, { text }],
        [`t-${i}`, { text: text.repeat(2) }],
      ]),
    );
    await eventually(() => expect(handed).toEqual(read));
    await subscription.stop();
    await store.close();
  });

  it('fails alone an append of a batch whose data has no JSON, and keeps a batch larger than its first buffer whole', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const handed: RecordedEvent[] = [];
    const subscription = store.subscribe({}, { onEvents: (events) => void handed.push(...events) });
    const text = 'Grüße 東京 🌦️ '.repeat(40); // about 1 KB of UTF-8 per event: the batch outgrows 16 KiB many times
    const appends = Array.from({ length: 300 }, (_, i) => [
      {
        stream: `big-${i}`,
        events: [{ ...event('T'), data: i === 150 ? { n: 1n } : { text, i } }],
        expected: 'no_stream' as const,
      },
    ]);
    const outcomes = await store.appendBatch(appends);
    expect(outcomes.map((outcome, i) => 'error' in outcome === (i === 150))).toEqual(Array(300).fill(true));
    expect(String((outcomes[150] as { error: unknown }).error)).toContain('BigInt');
    const read = await store.readAll({ after: 0n, maxCount: 1000 });
    expect(read.map((e) => e.data)).toEqual(
      Array.from({ length: 300 }, (_, i) => i)
        .filter((i) => i !== 150)
        .map((i) => ({ text, i })),
    );
    await eventually(() => expect(handed).toEqual(read));
    await subscription.stop();
    await store.close();
  });

  it('sets the room of a batch aside once, from its first append, when told how many appends to expect', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const text = 'x'.repeat(1000);
    function* appends(name: string) {
      for (let i = 0; i < 200; i++)
        yield [{ stream: `${name}-${i}`, events: [{ ...event('T'), data: { text } }], expected: 'no_stream' as const }];
    }
    const grows = jest.spyOn(BatchEncoder.prototype as unknown as { grow(capacity: number): void }, 'grow');
    await store.appendBatch(appends('unsized'));
    const unsized = grows.mock.calls.length;
    grows.mockClear();
    const outcomes = await store.appendBatch(appends('sized'), 200);
    expect(outcomes.filter((outcome) => 'ok' in outcome)).toHaveLength(200);
    expect(unsized).toBeGreaterThan(1); // 200 KB: the first 16 KiB doubled several times
    expect(grows).toHaveBeenCalledTimes(1);
    grows.mockRestore();
    await store.close();
  });

  it('decides the second part of an append naming one stream twice after the first', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const results = await store.appendMultiple([
      { stream: 's-1', events: [event('A')], expected: 'no_stream' },
      { stream: 's-1', events: [event('B')], expected: 0n },
    ]);
    expect(results.map((r) => r.nextRevision)).toEqual([0n, 1n]);
    await store.close();
  });

  it('hands a commit to a subscription waiting at the head without reading it back, as a read would return it', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 60_000 });
    await store.append('s-0', [event('Before')], { expected: 'no_stream' });
    const seen: RecordedEvent[] = [];
    let caughtUp!: () => void;
    let delivered!: () => void;
    const caughtUpOnce = new Promise<void>((resolve) => (caughtUp = resolve));
    const got = new Promise<void>((resolve) => (delivered = resolve));
    const subscription = store.subscribe(
      { filter: { streamPrefixes: ['s-'] } },
      {
        onEvents: (events) => {
          seen.push(...events);
          if (seen.length === 4) delivered();
        },
        onCaughtUp: () => caughtUp(),
      },
    );
    await caughtUpOnce;
    const reads = jest.spyOn(logReadsOf(store), 'rows');
    await Promise.all([
      store.append('s-1', [event('A'), event('B')], { expected: 'no_stream' }),
      store.append('other-1', [event('Skipped')], { expected: 'no_stream' }),
      store.append('s-2', [event('C')], { expected: 'no_stream' }),
    ]);
    await got;
    expect(reads).not.toHaveBeenCalled();
    expect(seen).toEqual(await store.readAll({ filter: { streamPrefixes: ['s-'] } }));
    await subscription.stop();
    await store.close();
  });

  it('hands a large commit over in a later turn, its data parsed when first read, as a read would return it', async () => {
    const file = join(folder, 'events.sqlite');
    const store = new SqliteEventStore({ file, pollIntervalMs: 60_000 });
    const seen: RecordedEvent[] = [];
    let caughtUp!: () => void;
    const caughtUpOnce = new Promise<void>((resolve) => (caughtUp = resolve));
    let delivered!: () => void;
    const got = new Promise<void>((resolve) => (delivered = resolve));
    const subscription = store.subscribe(
      {},
      {
        onEvents: (events) => {
          seen.push(...events);
          delivered();
        },
        onCaughtUp: () => caughtUp(),
      },
    );
    await caughtUpOnce;
    const reads = jest.spyOn(logReadsOf(store), 'rows');
    const large = { ...event('Large'), data: { items: Array.from({ length: 20_000 }, (_, i) => `item ${i}`) } };
    await store.append('big-1', [large], { expected: 'no_stream' });
    await got;
    expect(reads).not.toHaveBeenCalled();
    const [handed] = seen;
    expect(Object.getOwnPropertyDescriptor(handed, 'data')?.get).toBeDefined(); // not parsed until read
    expect(JSON.parse(JSON.stringify(handed.data))).toEqual(large.data);
    expect({ ...handed }).toEqual((await store.readAll())[0]);
    handed.data = { replaced: true };
    expect(handed.data).toEqual({ replaced: true });
    await subscription.stop();
    await store.close();
  });

  it("hands a large commit's events on one at a time, each in a turn of its own", async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 60_000 });
    const handed: string[] = [];
    let caughtUp!: () => void;
    const caughtUpOnce = new Promise<void>((resolve) => (caughtUp = resolve));
    const subscription = store.subscribe(
      {},
      {
        onEvents: (events) => {
          handed.push(events.map((e) => e.type).join('+'));
          // Queued while this event is handled: it runs before the next one is handed on.
          setImmediate(() => handed.push('turn'));
        },
        onCaughtUp: () => caughtUp(),
      },
    );
    try {
      await caughtUpOnce;
      const items = Array.from({ length: 10_000 }, (_, i) => `item ${i}`);
      const large = ['A', 'B', 'C'].map((type) => ({ ...event(type), data: { items } }));
      await store.append('big-1', large, { expected: 'no_stream' });
      await eventually(() => expect(handed.join('+')).toContain('C'));
      expect(handed.slice(0, 5)).toEqual(['A', 'turn', 'B', 'turn', 'C']);
      await store.append('small-1', [event('D'), event('E')], { expected: 'no_stream' });
      await eventually(() => expect(handed).toContain('D+E'));
    } finally {
      await subscription.stop();
      await store.close();
    }
  });

  it('hands a large commit to each waiting subscription even when a later commit lands before its turn: none reads it back', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 60_000 });
    const seen: string[][] = [[], [], [], []];
    const caughtUp = seen.map(() => {
      let resolve!: () => void;
      return { promise: new Promise<void>((done) => (resolve = done)), resolve: () => resolve() };
    });
    const subscriptions = seen.map((types, i) =>
      store.subscribe(
        {},
        {
          onEvents: (events) => {
            types.push(...events.map((e) => e.type));
            // A slow handler of the large event: the later commit is reported while the others still wait.
            if (events.some((e) => e.type === 'Large')) for (const end = Date.now() + 20; Date.now() < end;);
          },
          onCaughtUp: () => caughtUp[i].resolve(),
        },
      ),
    );
    try {
      await Promise.all(caughtUp.map(({ promise }) => promise));
      const reads = jest.spyOn(logReadsOf(store), 'rows');
      const large = { ...event('Large'), data: { items: Array.from({ length: 20_000 }, (_, i) => `item ${i}`) } };
      await store.append('big-1', [large], { expected: 'no_stream' });
      await store.append('small-1', [event('Small')], { expected: 'no_stream' });
      await eventually(() => expect(seen).toEqual(seen.map(() => ['Large', 'Small'])));
      const typesReadBack = reads.mock.results.flatMap(({ value }) => (value as unknown[][]).map((row) => row[4]));
      expect(typesReadBack).not.toContain('Large');
    } finally {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      await store.close();
    }
  });

  it('lets a filtered subscription at the head sleep through commits without its events: no wake-up, no read', async () => {
    const file = join(folder, 'events.sqlite');
    const store = new SqliteEventStore({ file, pollIntervalMs: 60_000 });
    const seen: RecordedEvent[] = [];
    let caughtUps = 0;
    let delivered!: () => void;
    let got = new Promise<void>((resolve) => (delivered = resolve));
    const subscription = store.subscribe(
      { filter: { eventTypes: ['Wanted'] } },
      {
        onEvents: (events) => {
          seen.push(...events);
          delivered();
        },
        onCaughtUp: () => caughtUps++,
      },
    );
    const other = new SqliteEventStore({ file });
    try {
      await eventually(() => expect(caughtUps).toBe(1));
      const reads = jest.spyOn(logReadsOf(store), 'rows');
      for (let i = 0; i < 5; i++) await store.append(`other-${i}`, [event('Unwanted')], { expected: 'no_stream' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(caughtUps).toBe(1);
      await store.append('wanted-1', [event('Wanted')], { expected: 'no_stream' });
      await got;
      expect(reads).not.toHaveBeenCalled();
      expect(seen.map((e) => [e.type, e.position])).toEqual([['Wanted', 6n]]);
      // Another process's commit leaves a gap before this store's next one, which wakes it to read the gap.
      got = new Promise<void>((resolve) => (delivered = resolve));
      await other.append('wanted-2', [event('Wanted')], { expected: 'no_stream' });
      await store.append('other-9', [event('Unwanted')], { expected: 'no_stream' });
      await got;
      expect(seen.map((e) => [e.stream, e.position])).toEqual([
        ['wanted-1', 6n],
        ['wanted-2', 7n],
      ]);
    } finally {
      await other.close();
      await subscription.stop();
      await store.close();
    }
  });

  it('sees events another process appended to the same file, by polling', async () => {
    const file = join(folder, 'events.sqlite');
    const reader = new SqliteEventStore({ file, pollIntervalMs: 10 });
    const writer = new SqliteEventStore({ file });
    const seen: string[] = [];
    const got = new Promise<void>((resolve) => {
      reader.subscribe(
        {},
        {
          onEvents: (events) => {
            seen.push(...events.map((e) => e.type));
            resolve();
          },
        },
      );
    });
    await writer.append('s-1', [event('FromElsewhere')], { expected: 'no_stream' });
    await got;
    expect(seen).toEqual(['FromElsewhere']);
    await writer.close();
    await reader.close();
  });

  describe('a subscription that is behind', () => {
    /** 25 streams of 4 events, every other one of type Kept. */
    async function log(store: SqliteEventStore) {
      for (let i = 0; i < 25; i++)
        await store.append(`s-${i}`, [event('Kept'), event('Other'), event('Kept'), event('Other')], {
          expected: 'no_stream',
        });
    }

    function catchUp(store: SqliteEventStore, filter?: { eventTypes: string[] }) {
      const seen: RecordedEvent[] = [];
      const batches: number[] = [];
      return new Promise<{ seen: RecordedEvent[]; batches: number[] }>((resolve, reject) => {
        const subscription = store.subscribe(
          { filter, batchSize: 10 },
          {
            onEvents: async (events) => {
              batches.push(events.length);
              seen.push(...events);
              // A handler that takes its time, as projections do: the next batch is read meanwhile.
              await new Promise((wait) => setTimeout(wait, 2));
            },
            onCaughtUp: () => void subscription.stop().then(() => resolve({ seen, batches })),
            onError: reject,
          },
        );
      });
    }

    const readAhead = (store: SqliteEventStore) =>
      (store as unknown as { readAheadThread: { read(sql: string, params: unknown[]): Promise<unknown[][]> } })
        .readAheadThread;

    it('reads each batch after the first full one on the reader thread, and gets every event once, in order', async () => {
      const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
      await log(store);
      const aheadReads = jest.spyOn(readAhead(store), 'read');
      const onThisThread = jest.spyOn(logReadsOf(store), 'rows');
      const { seen, batches } = await catchUp(store, { eventTypes: ['Kept'] });
      // The first batch here; the next four, and the empty one that ends the catch-up, there.
      expect(onThisThread).toHaveBeenCalledTimes(1);
      expect(aheadReads).toHaveBeenCalledTimes(5);
      expect(batches).toEqual([10, 10, 10, 10, 10]);
      expect(seen).toHaveLength(50);
      expect(seen).toEqual(await store.readAll({ filter: { eventTypes: ['Kept'] } }));
      await store.close();
    });

    it('reads on this thread instead when the reader thread fails', async () => {
      const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
      await log(store);
      jest.spyOn(readAhead(store), 'read').mockRejectedValue(new Error('reader gone'));
      const { seen } = await catchUp(store);
      expect(seen).toEqual(await store.readAll({ maxCount: 1000 }));
      expect(seen).toHaveLength(100);
      await store.close();
    });

    it('stops the reader thread once idle, so it keeps neither memory nor the process', async () => {
      const workers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
      const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
      await log(store);
      const before = workers();
      const read = readAhead(store).read('SELECT position FROM events WHERE position > ? LIMIT ?', [90, 5]);
      expect(workers()).toBeGreaterThan(before);
      await expect(read).resolves.toEqual([[91], [92], [93], [94], [95]]);
      expect(workers()).toBe(before);
      await expect(readAhead(store).read('SELECT nothing FROM nowhere', [])).rejects.toMatchObject({
        code: 'SQLITE_ERROR',
      });
      await store.close();
    });
  });

  describe('reads of the log a request may ask for', () => {
    /** `count` events written straight into the file, in one transaction (fast, and the store reads them as its own). */
    function fill(file: string, count: number): void {
      const db = new Database(file);
      const insert = db.prepare(
        `INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, 0, 'Filled', '{}', '{"schemaVersion":1}', 0)`,
      );
      db.transaction(() => {
        for (let i = 0; i < count; i++) insert.run(`filled-${i}`, `filled-${i}`);
      })();
      db.close();
    }

    it('look at a bounded stretch of the log whatever the filter, and say where to go on', async () => {
      const file = join(folder, 'events.sqlite');
      const store = new SqliteEventStore({ file });
      fill(file, PAGE_SCAN_LIMIT + 50_000);
      const page = await store.readLogPage({
        direction: 'forward',
        maxCount: 10,
        filter: { eventTypes: ['Nothing', 'Else'] },
      });
      expect(page).toEqual({ events: [], cursor: BigInt(PAGE_SCAN_LIMIT), end: false });
      const rest = await store.readLogPage({
        direction: 'forward',
        after: page.cursor,
        maxCount: 10,
        filter: { streams: ['filled-0'] },
      });
      expect(rest).toEqual({ events: [], cursor: BigInt(PAGE_SCAN_LIMIT + 50_000), end: true });
      const filter = { streams: ['filled-0', 'filled-1'], eventTypes: ['Filled'] };
      const back = await store.readLogPage({ direction: 'backward', maxCount: 10, filter });
      expect(back).toMatchObject({ events: [], cursor: BigInt(50_001), end: false });
      // One stream alone walks its index: its events, however far apart.
      const one = await store.readLogPage({ direction: 'backward', maxCount: 10, filter: { streams: ['filled-1'] } });
      expect(one).toMatchObject({ events: [{ stream: 'filled-1', position: 2n }], end: true });
      await store.close();
    }, 30_000);

    it('serve type and stream filters through their indexes', async () => {
      const file = join(folder, 'events.sqlite');
      const store = new SqliteEventStore({ file });
      await store.close();
      const db = new Database(file);
      const plan = (sql: string) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...Array.from(sql.matchAll(/\?/g), () => 1))
          .map((row) => (row as { detail: string }).detail)
          .join('; ');
      const byType = windowQuery(0n, 10n, false, 5, { eventTypes: ['A', 'B'] });
      expect(plan(byType.sql)).toContain('events_by_type');
      const byStream = windowQuery(0n, 10n, true, 5, { streams: ['a-1'], eventTypes: ['A'] });
      expect(plan(byStream.sql)).toContain('events_by_stream');
      db.close();
    });

    it('keep a bounded number of prepared statements, however many filter shapes are asked for', async () => {
      const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
      for (let i = 0; i < 300; i++) {
        const types = Array.from({ length: (i % 100) + 1 }, (_, k) => `Type${k}`);
        await store.readAll({ filter: { eventTypes: types, streams: i >= 100 ? [`s-${i}`] : [] } });
      }
      const cached = (logReadsOf(store) as unknown as { statements: { size: number } }).statements.size;
      expect(cached).toBeLessThanOrEqual(200);
      await store.close();
    });
  });
});
