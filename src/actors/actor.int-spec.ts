import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { TestClock } from '../../test/support/test-clock';
import { SequentialIds } from '../../test/support/sequential-ids';
import { Decider, DomainError, DomainEvent } from '../domain/decider';
import { ConcurrencyError, EventStore } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { ActorRegistry, DEFAULT_MAX_ATTEMPTS } from './actor-registry';

type Added = DomainEvent<'Added', { amount: number; total: number }>;
const counter: Decider<number, { amount: number }, Added> = {
  initialState: 0,
  decide: (total, { amount }) => (amount === 0 ? [] : [{ type: 'Added', data: { amount, total: total + amount } }]),
  evolve: (total, event) => total + event.data.amount,
};
const context = { correlationId: 'c', causationId: 'c' };

describe('actors', () => {
  let folder: string;
  let store: SqliteEventStore;
  const registry = (s: EventStore = store, cacheSize = 100, maxAttempts = DEFAULT_MAX_ATTEMPTS) =>
    new ActorRegistry(s, new TestClock(), new SequentialIds(), { cacheSize, maxAttempts });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'actors-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs the commands of one stream one at a time, each deciding on the state the last one left', async () => {
    const actors = registry();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => actors.send('count-1', counter, { amount: 1 }, context)),
    );
    expect(results.map((r) => r.events[0].data.total).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const stored = await store.readStream('count-1');
    expect(stored.events.map((e) => e.revision)).toEqual(Array.from({ length: 30 }, (_, i) => BigInt(i)));
  });

  it('keeps nothing of the request that used it last once idle (its async context holds that request)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const actors = registry();
    const storage = new AsyncLocalStorage<{ request: string }>();
    let request: WeakRef<object> | undefined;
    await (async () => {
      const store = { request: 'POST /v1/agents' };
      request = new WeakRef(store);
      await storage.run(store, () => actors.send('count-3', counter, { amount: 1 }, context));
    })();
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target until the job ends
    gc();
    expect(actors.size).toBe(1);
    expect(request!.deref()).toBeUndefined();
  });

  it('loses no update when two instances write the same stream: conflicts reload and decide again', async () => {
    const first = registry();
    const second = registry();
    const sends = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? first : second).send('count-2', counter, { amount: 1 }, context),
    );
    await Promise.all(sends);
    const stored = await store.readStream('count-2');
    expect(stored.events).toHaveLength(40);
    expect(stored.events.map((e) => (e.data as Added['data']).total)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(await first.read('count-2', counter)).toBe(40);
  });

  it('gives up with a conflict after a bounded number of attempts', async () => {
    let appends = 0;
    const alwaysConflicting: EventStore = Object.assign(Object.create(store), {
      readStream: store.readStream.bind(store),
      append: async (stream: string) => {
        appends++;
        throw new ConcurrencyError(stream, 'no_stream', 0n);
      },
    });
    const error = await registry(alwaysConflicting, 100, 3)
      .send('count-3', counter, { amount: 1 }, context)
      .catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.kind).toBe('conflict');
    expect(appends).toBe(3);
  });

  it('reads the stream again after a failed append whose outcome is unknown', async () => {
    const actors = registry();
    await actors.send('count-4', counter, { amount: 1 }, context);
    let failNext = true;
    const flaky: EventStore = Object.assign(Object.create(store), {
      readStream: store.readStream.bind(store),
      append: async (...args: Parameters<EventStore['append']>) => {
        // The write lands but the caller hears an error, as when a connection drops after the commit.
        const result = await store.append(...args);
        if (failNext) {
          failNext = false;
          throw new Error('connection reset');
        }
        return result;
      },
    });
    const flakyActors = registry(flaky);
    await expect(flakyActors.send('count-4', counter, { amount: 10 }, context)).rejects.toThrow('connection reset');
    const next = await flakyActors.send('count-4', counter, { amount: 100 }, context);
    expect(next.state).toBe(111);
  });

  it('keeps at most cacheSize idle actors, and a dropped actor reloads its state', async () => {
    const actors = registry(store, 2);
    for (const stream of ['a', 'b', 'c', 'd']) await actors.send(`count-${stream}`, counter, { amount: 2 }, context);
    expect(actors.size).toBeLessThanOrEqual(2);
    expect((await actors.send('count-a', counter, { amount: 3 }, context)).state).toBe(5);
  });

  it('keeps no actor for a stream sent to with cache: false', async () => {
    const actors = registry();
    await actors.send('count-6', counter, { amount: 1 }, context, { newStream: true, cache: false });
    expect(actors.size).toBe(0);
    expect((await actors.send('count-6', counter, { amount: 1 }, context)).state).toBe(2);
  });

  it('keeps no actor for a stream read with cache: false, and uses the cached one when there is one', async () => {
    const actors = registry();
    await actors.send('count-7', counter, { amount: 2 }, context, { cache: false });
    expect(await actors.read('count-7', counter, { cache: false })).toBe(2);
    expect(actors.size).toBe(0);
    await actors.send('count-7', counter, { amount: 1 }, context);
    expect(await actors.read('count-7', counter, { cache: false })).toBe(3);
    expect(actors.size).toBe(1);
  });

  it('appends nothing when the decider decides nothing', async () => {
    const result = await registry().send('count-5', counter, { amount: 0 }, context);
    expect(result.position).toBeUndefined();
    expect((await store.readStream('count-5')).exists).toBe(false);
  });
});
