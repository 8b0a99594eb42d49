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
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
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

  it('opens several new streams in one commit, and steps aside when one exists or the store cannot', async () => {
    const actors = registry();
    const both = await actors.sendToNewStreams(
      [
        { stream: 'new-a', decider: counter, command: { amount: 2 } },
        { stream: 'new-b', decider: counter, command: { amount: 3 } },
      ],
      context,
    );
    expect(both?.map((r) => r.state)).toEqual([2, 3]);
    expect((await store.readStream('new-b')).events[0].position).toBe(both?.[1].position);
    expect((await actors.send('new-a', counter, { amount: 1 }, context)).state).toBe(3); // the actor took the state

    const taken = await actors.sendToNewStreams(
      [
        { stream: 'new-c', decider: counter, command: { amount: 1 } },
        { stream: 'new-b', decider: counter, command: { amount: 1 } },
      ],
      context,
    );
    expect(taken).toBeUndefined();
    expect((await store.readStream('new-c')).exists).toBe(false);

    const withoutMultiple = Object.assign(Object.create(store) as EventStore, { appendMultiple: undefined });
    const stepByStep = await registry(withoutMultiple).sendToNewStreams(
      [{ stream: 'new-d', decider: counter, command: { amount: 1 } }],
      context,
    );
    expect(stepByStep).toBeUndefined();
  });

  /** Adds to `count-<n>` and opens a new stream `copy-<n>` that starts at the total the command reached. */
  const addAndCopy = (actors: ActorRegistry, n: number, amount: number, copy = `copy-${n}`) =>
    actors
      .send(`count-${n}`, counter, { amount }, context, {
        opens: (events) => [
          { stream: copy, decider: counter, command: { amount: events[events.length - 1].data.total } },
        ],
      })
      .then(({ opened, ...result }) => ({ result, opened }));

  it('writes a command to an existing stream and the new streams it opens in one commit', async () => {
    const actors = registry();
    await actors.send('count-7', counter, { amount: 1 }, context);
    const { result, opened } = await addAndCopy(actors, 7, 2);
    expect(result.state).toBe(3);
    expect(opened?.map((o) => o.state)).toEqual([3]);
    const [own, copy] = [(await store.readStream('count-7')).events[1], (await store.readStream('copy-7')).events[0]];
    expect([own.position, copy.position]).toEqual([result.position, result.position! + 1n]);
    expect(copy.position).toBe(opened?.[0].position);
    expect(copy.recordedAt).toEqual(own.recordedAt); // one commit
    expect((await actors.send('copy-7', counter, { amount: 1 }, context)).state).toBe(4); // the actor took the state
  });

  it('decides again on a conflict with another writer, and the new streams follow what was written', async () => {
    const first = registry();
    const second = registry();
    await first.send('count-8', counter, { amount: 1 }, context);
    await second.send('count-8', counter, { amount: 10 }, context); // first's cached state is now stale
    const { result, opened } = await addAndCopy(first, 8, 2);
    expect(result.state).toBe(13);
    expect(opened?.map((o) => o.state)).toEqual([13]);
    expect((await store.readStream('count-8')).events).toHaveLength(3);
    expect((await store.readStream('copy-8')).events.map((e) => e.data)).toEqual([{ amount: 13, total: 13 }]);
  });

  it('writes the command alone when a new stream exists after all, or the store cannot write several', async () => {
    const actors = registry();
    await actors.send('taken-9', counter, { amount: 5 }, context);
    const taken = await addAndCopy(actors, 9, 2, 'taken-9');
    expect(taken.opened).toBeUndefined();
    expect(taken.result.state).toBe(2);
    expect((await store.readStream('count-9')).events).toHaveLength(1);
    expect((await store.readStream('taken-9')).events).toHaveLength(1);

    const withoutMultiple = Object.assign(Object.create(store) as EventStore, { appendMultiple: undefined });
    const alone = await addAndCopy(registry(withoutMultiple), 10, 2);
    expect(alone.opened).toBeUndefined();
    expect((await store.readStream('count-10')).events).toHaveLength(1);
    expect((await store.readStream('copy-10')).exists).toBe(false);
  });

  it("writes nothing when the command or a new stream's command is refused", async () => {
    const refusing: Decider<number, { amount: number }, Added> = {
      ...counter,
      decide: () => {
        throw new DomainError('conflict', 'refused');
      },
    };
    const actors = registry();
    const refusedCopy = { opens: () => [{ stream: 'copy-11', decider: refusing, command: { amount: 1 } }] };
    await expect(actors.send('count-11', counter, { amount: 2 }, context, refusedCopy)).rejects.toThrow('refused');
    expect((await store.readStream('count-11')).exists).toBe(false);
    expect((await actors.send('count-11', counter, { amount: 1 }, context)).state).toBe(1);
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
    expect(await first.of('count-2', counter).read()).toBe(40);
    // A cached actor's read catches up with what the other instance wrote since.
    await second.send('count-2', counter, { amount: 2 }, context);
    expect(await first.of('count-2', counter).read()).toBe(42);
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

    const conflicting = registry(
      Object.assign(Object.create(store), {
        readStream: store.readStream.bind(store),
        appendMultiple: async () => {
          appends++;
          throw new ConcurrencyError('count-3', 'no_stream', 0n);
        },
      }),
      100,
      3,
    );
    const withNewStreams = await addAndCopy(conflicting, 3, 1).catch((e) => e);
    expect(withNewStreams.kind).toBe('conflict');
    expect(appends).toBe(6);
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

  it('hands out an actor of its own for a decider that declares cacheActors: false, to hold while it works', async () => {
    const actors = registry();
    const short: typeof counter = { ...counter, cacheActors: false };
    const held = actors.of('short-6', short);
    await held.send({ amount: 2 }, context, { newStream: true });
    expect(actors.size).toBe(0);
    expect(actors.of('short-6', short)).not.toBe(held);
    await actors.send('short-6', short, { amount: 1 }, context);
    expect((await held.send({ amount: 1 }, context)).state).toBe(4); // its conflict read what the other wrote
  });

  it('keeps no actor for the streams of a decider that declares cacheActors: false, opened, sent to or read', async () => {
    const actors = registry();
    const short: typeof counter = { ...counter, cacheActors: false };
    await actors.sendToNewStreams([{ stream: 'short-1', decider: short, command: { amount: 2 } }], context);
    await actors.send('short-2', short, { amount: 1 }, context);
    expect(await actors.of('short-1', short).read()).toBe(2);
    expect((await actors.send('short-1', short, { amount: 3 }, context)).state).toBe(5);
    expect(actors.size).toBe(0);
    await actors.send('count-8', counter, { amount: 1 }, context);
    expect(actors.size).toBe(1);
  });

  it('appends nothing when the decider decides nothing', async () => {
    const result = await registry().send('count-5', counter, { amount: 0 }, context);
    expect(result.position).toBeUndefined();
    expect((await store.readStream('count-5')).exists).toBe(false);
  });
});
