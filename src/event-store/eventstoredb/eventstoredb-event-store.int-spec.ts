import { randomUUID } from 'node:crypto';
import { createServer, Server, Socket } from 'node:net';
import {
  AllStreamResolvedEvent,
  EventStoreDBClient,
  ResolvedEvent,
  START,
  streamNameFilter,
} from '@eventstore/db-client';
import { EventStoreDbTestDouble } from '../../../test/support/eventstoredb-test-double';
import { describeEventStoreContract } from '../event-store.contract';
import { EventStore, NewEvent, RecordedEvent, StoreUnavailableError } from '../event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

for (const batchAppend of [true, false]) {
  describe(`EventStoreDB test double with batch append ${batchAppend ? 'advertised' : 'not advertised'}`, () => {
    let double: EventStoreDbTestDouble;
    beforeAll(async () => (double = await EventStoreDbTestDouble.create({ batchAppend })));
    afterAll(() => double.close());

    describeEventStoreContract(
      'eventstoredb adapter over the test double',
      async () => new EventStoreDbEventStore({ url: double.connectionString }),
      (store) => store.close(),
    );

    it(`appends through ${batchAppend ? 'Streams.BatchAppend' : 'Streams.Append'}`, async () => {
      const store = new EventStoreDbEventStore({ url: double.connectionString });
      const before = { ...double.calls };
      await store.append(`path-${randomUUID()}`, [event('A')], { expected: 'no_stream' });
      await store.close();
      expect(double.calls.batchAppend - before.batchAppend).toBe(batchAppend ? 1 : 0);
      expect(double.calls.append - before.append).toBe(batchAppend ? 0 : 1);
    });
  });
}

const realServerUrl = process.env.EVENTSTORE_URL;
if (realServerUrl) {
  describeEventStoreContract(
    'eventstoredb adapter on the real server at EVENTSTORE_URL',
    async () => new EventStoreDbEventStore({ url: realServerUrl }),
    (store) => store.close(),
  );
} else {
  console.info('EventStoreDB real-server contract run skipped: EVENTSTORE_URL is not set');
}

describe('eventstoredb adapter', () => {
  let double: EventStoreDbTestDouble;
  let store: EventStore;
  beforeEach(async () => {
    double = await EventStoreDbTestDouble.create({ batchAppend: true });
    store = new EventStoreDbEventStore({ url: double.connectionString, retryInitialMs: 20, retryMaxMs: 200 });
  });
  afterEach(async () => {
    await store.close();
    await double.close();
  });

  it('never hands out system events from readAll or subscribe', async () => {
    double.inject('$stats-127.0.0.1:2113', '$statsCollected');
    double.inject('$ce-user', 'UserRegistered');
    double.inject('user-1', '$metadata');
    await store.append('user-1', [event('UserRegistered')], { expected: 'any' });

    expect((await store.readAll()).map((e) => [e.stream, e.type])).toEqual([['user-1', 'UserRegistered']]);
    const { seen, caughtUp, subscription } = collect(store, {});
    await caughtUp;
    await subscription.stop();
    expect(seen.map((e) => [e.stream, e.type])).toEqual([['user-1', 'UserRegistered']]);
  });

  it('deletes a stream: it reads as absent at once, and can be written again', async () => {
    await store.append('keys-1', [event('KeyMade')], { expected: 'no_stream' });
    await store.append('other-1', [event('Kept')], { expected: 'no_stream' });

    await store.deleteStream!('keys-1');

    expect(await store.readStream('keys-1')).toEqual({ exists: false, events: [] });
    expect((await store.readStream('other-1')).events).toHaveLength(1);
    await store.append('keys-1', [event('KeyMadeAgain')], { expected: 'any' });
    expect((await store.readStream('keys-1')).events.map((e) => e.type)).toEqual(['KeyMadeAgain']);
  });

  it('filters by event type on the server and in readAll', async () => {
    await store.append('a-1', [event('Kept'), event('Dropped'), event('Kept')], { expected: 'no_stream' });
    await store.append('b-1', [event('Kept')], { expected: 'no_stream' });
    const filter = { eventTypes: ['Kept'] };
    expect((await store.readAll({ filter })).map((e) => e.stream)).toEqual(['a-1', 'a-1', 'b-1']);
    const { seen, caughtUp, subscription } = collect(store, { filter });
    await caughtUp;
    await subscription.stop();
    expect(seen.map((e) => e.stream)).toEqual(['a-1', 'a-1', 'b-1']);
  });

  it('pages readAll past the first page and honours maxCount', async () => {
    for (let i = 0; i < 3; i++) {
      await store.append(
        `bulk-${i}`,
        Array.from({ length: 500 }, () => event('Bulk')),
        { expected: 'no_stream' },
      );
      double.inject(`$system-${i}`, '$noise');
    }
    const all = await store.readAll({ maxCount: 10_000 });
    expect(all).toHaveLength(1500);
    expect(new Set(all.map((e) => e.position)).size).toBe(1500);
    expect(await store.readAll({ after: all[999].position, maxCount: 7 })).toEqual(all.slice(1000, 1007));
  });

  it('waits for each batch before the next, and signals caught-up only after the last one', async () => {
    // More events than the adapter buffers before it pauses the stream, so some wait in the stream when
    // the server's caught-up message is parsed.
    const count = 70;
    await store.append(
      'slow-1',
      Array.from({ length: count }, () => event('Slow')),
      { expected: 'no_stream' },
    );
    const batches: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let deliveredAtCaughtUp = -1;
    const caughtUp = deferred();
    const subscription = store.subscribe(
      { batchSize: 10 },
      {
        onEvents: async (events) => {
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, batches.length === 0 ? 100 : 1));
          batches.push(events.length);
          inFlight--;
        },
        onCaughtUp: () => {
          deliveredAtCaughtUp = batches.reduce((a, b) => a + b, 0);
          caughtUp.resolve();
        },
      },
    );
    await caughtUp.promise;
    await subscription.stop();
    expect(deliveredAtCaughtUp).toBe(count);
    expect(maxInFlight).toBe(1);
    expect(Math.max(...batches)).toBeLessThanOrEqual(10);
  });

  it('resumes a subscription after the server restarts, with no gap and no duplicate', async () => {
    await store.append('r-1', [event('One')], { expected: 'no_stream' });
    let caughtUpCount = 0;
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribe(
      { filter: { streamPrefixes: ['r-'] } },
      { onEvents: (events) => void seen.push(...events), onCaughtUp: () => void caughtUpCount++ },
    );
    await until(() => caughtUpCount === 1 && seen.length === 1);

    await double.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await double.start();
    // Written before the subscription is back: it must catch up on them.
    double.inject('r-2', 'Two');
    double.inject('r-1', 'Three');
    await until(() => caughtUpCount >= 2);
    await retry(() => store.append('r-1', [event('Four')], { expected: 1n }));
    await until(() => seen.length >= 4);
    await subscription.stop();

    expect(seen.map((e) => e.type)).toEqual(['One', 'Two', 'Three', 'Four']);
    for (let i = 1; i < seen.length; i++) expect(seen[i].position > seen[i - 1].position).toBe(true);
  }, 15_000);

  it('rejects calls with StoreUnavailableError within the deadline when the server is down', async () => {
    await double.stop();
    const down = new EventStoreDbEventStore({ url: double.connectionString, deadlineMs: 300 });
    await expectUnavailableWithin(2000, () => down.append('s-1', [event('A')], { expected: 'any' }));
    await expectUnavailableWithin(2000, () => down.readStream('s-1'));
    await expectUnavailableWithin(2000, () => down.readAll());
    await down.close();
  });

  it('rejects calls with StoreUnavailableError within the deadline when the server accepts but never answers', async () => {
    const silent = await silentServer();
    const port = (silent.address() as { port: number }).port;
    const hung = new EventStoreDbEventStore({ url: `esdb://127.0.0.1:${port}?tls=false`, deadlineMs: 300 });
    try {
      await expectUnavailableWithin(2000, () => hung.append('s-1', [event('A')], { expected: 'any' }));
      await expectUnavailableWithin(2000, () => hung.readStream('s-1'));
    } finally {
      await hung.close();
      silent.close();
    }
  });

  it('keeps a snapshot as the one event of a companion stream that keeps only its last event', async () => {
    await store.append('w-1', [event('A'), event('B')], { expected: 'no_stream' });
    for (const revision of [0n, 1n])
      await store.writeSnapshot('w-1', { revision, schemaVersion: 1, state: { revision: Number(revision) } });
    expect(double.streamEvents('snapshot-w-1').map((e) => e.type)).toEqual(['$snapshot', '$snapshot']);
    const metadata = double
      .streamEvents('$$snapshot-w-1')
      .map((e) => [e.type, JSON.parse(Buffer.from(e.data).toString())]);
    expect(metadata).toEqual([['$metadata', { $maxCount: 1 }]]); // set once, when the companion stream is made
    const client = EventStoreDBClient.connectionString(double.connectionString);
    const kept = [];
    for await (const resolved of client.readStream('snapshot-w-1')) kept.push(resolved.event?.revision);
    await client.dispose();
    expect(kept).toEqual([1n]);
    expect(await store.readSnapshot('w-1')).toEqual({ revision: 1n, schemaVersion: 1, state: { revision: 1 } });
  });

  it('fails to read a snapshot that is not one, rather than guessing', async () => {
    double.inject('snapshot-w-2', '$snapshot', { revision: 'seven', state: {} });
    await expect(store.readSnapshot('w-2')).rejects.toThrow('holds no readable snapshot');
  });

  it('never prints the credentials of the connection string', async () => {
    const withPassword = new EventStoreDbEventStore({ url: 'esdb://admin:secret@db.example:2113?tls=false' });
    const tricky = new EventStoreDbEventStore({
      url: 'esdb://admin:s3cr/t@x@db.example:2113,db2.example:2113?tls=true',
    });
    expect(withPassword.description).toBe('eventstoredb (db.example:2113)');
    expect(tricky.description).toBe('eventstoredb (db.example:2113,db2.example:2113)');
    for (const described of [withPassword, tricky]) {
      expect(described.description).not.toMatch(/secret|s3cr|admin/);
      await described.close();
    }
  });
});

describe('EventStoreDB test double (not EventStoreDB), through the raw client', () => {
  it('sends checkpoints to a filtered $all subscription, and serves stream subscriptions', async () => {
    const double = await EventStoreDbTestDouble.create();
    const client = EventStoreDBClient.connectionString(double.connectionString);
    for (let i = 0; i < 40; i++) double.inject(`noise-${i}`, 'Noise');
    double.inject('wanted-1', 'Wanted');

    const checkpoints: bigint[] = [];
    const all = client.subscribeToAll({
      filter: streamNameFilter({
        prefixes: ['wanted-'],
        maxSearchWindow: 10,
        checkpointReached: (_, p) => void checkpoints.push(p.commit),
      }),
    });
    const fromAll = await new Promise<AllStreamResolvedEvent>((resolve) => all.once('data', resolve));
    expect(fromAll.event?.streamId).toBe('wanted-1');
    expect(checkpoints).toEqual([10_000n, 20_000n, 30_000n, 40_000n]);

    const stream = client.subscribeToStream('wanted-1', { fromRevision: START });
    const revisions: bigint[] = [];
    const two = new Promise<void>((resolve) =>
      stream.on('data', (resolved: ResolvedEvent) => revisions.push(resolved.event!.revision) === 2 && resolve()),
    );
    double.inject('wanted-1', 'AlsoWanted');
    await two;
    expect(revisions).toEqual([0n, 1n]);

    await all.unsubscribe();
    await stream.unsubscribe();
    await client.dispose();
    await double.close();
  });
});

function event(type: string): NewEvent {
  return { id: randomUUID(), type, data: { at: type }, metadata: { schemaVersion: 1 } };
}

function collect(store: EventStore, options: Parameters<EventStore['subscribe']>[0]) {
  const seen: RecordedEvent[] = [];
  const caughtUp = deferred();
  const subscription = store.subscribe(options, {
    onEvents: (events) => void seen.push(...events),
    onCaughtUp: () => caughtUp.resolve(),
  });
  return { seen, caughtUp: caughtUp.promise, subscription };
}

async function expectUnavailableWithin(ms: number, call: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  await expect(call()).rejects.toBeInstanceOf(StoreUnavailableError);
  expect(Date.now() - started).toBeLessThan(ms);
}

/** A TCP server that accepts connections and never speaks HTTP/2; close() also drops its connections. */
function silentServer(): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => void sockets.add(socket));
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The client may need a call or two to notice that the server is back. */
async function retry<T>(call: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
