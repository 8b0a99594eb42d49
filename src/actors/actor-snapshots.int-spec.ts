import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Logger } from '@nestjs/common';
import { TestClock } from '../../test/support/test-clock';
import { SequentialIds } from '../../test/support/sequential-ids';
import { Decider, DomainEvent } from '../domain/decider';
import { EventStore, StreamSnapshot } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { ActorRegistry } from './actor-registry';

type Added = DomainEvent<'Added', { amount: number }>;
const counter: Decider<number, { amount: number }, Added> = {
  initialState: 0,
  decide: (_total, { amount }) => [{ type: 'Added', data: { amount } }],
  evolve: (total, event) => total + event.data.amount,
  snapshot: {
    version: 2,
    fromJson: (json) => {
      if (typeof json !== 'number') throw new Error('not a count');
      return json;
    },
  },
};
const context = { correlationId: 'c', causationId: 'c' };

describe('actors with snapshots', () => {
  let folder: string;
  let store: SqliteEventStore;
  let warnings: jest.SpyInstance;
  const registry = (snapshotEvery: number, s: EventStore = store) =>
    new ActorRegistry(s, new TestClock(), new SequentialIds(), { cacheSize: 100, maxAttempts: 3, snapshotEvery });

  /** Appends `count` events of 1 to `stream` in one commit. */
  async function history(stream: string, count: number): Promise<void> {
    const ids = new SequentialIds();
    const added = () => ({ id: ids.newEventId(), type: 'Added', data: { amount: 1 }, metadata: { schemaVersion: 1 } });
    await store.append(stream, Array.from({ length: count }, added), { expected: 'no_stream' });
  }

  /** The store, with every readStream's `fromRevision` recorded and readSnapshot/writeSnapshot replaceable. */
  function spied(overrides: Partial<EventStore> = {}) {
    const reads: bigint[] = [];
    const spy: EventStore = Object.assign(Object.create(store), {
      readStream: (stream: string, options: { fromRevision?: bigint; maxCount?: number } = {}) => {
        reads.push(options.fromRevision ?? 0n);
        return store.readStream(stream, options);
      },
      ...overrides,
    });
    return { spy, reads };
  }

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'actor-snapshots-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    warnings.mockRestore();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes a snapshot after the answer, once the state is snapshotEvery events past the last one', async () => {
    const actors = registry(3);
    for (let i = 0; i < 2; i++) await actors.send('c-1', counter, { amount: 1 }, context);
    await actors.snapshotsSettled();
    expect(await store.readSnapshot('c-1')).toBeUndefined();

    await actors.send('c-1', counter, { amount: 1 }, context);
    expect(await store.readSnapshot('c-1')).toBeUndefined(); // not yet: the answer comes first
    await actors.snapshotsSettled();
    expect(await store.readSnapshot('c-1')).toEqual({ revision: 2n, schemaVersion: 2, state: 3 });

    for (let i = 0; i < 3; i++) await actors.send('c-1', counter, { amount: 10 }, context);
    await actors.snapshotsSettled();
    expect(await store.readSnapshot('c-1')).toEqual({ revision: 5n, schemaVersion: 2, state: 33 });
  });

  it('loads from the snapshot, reading only the events after it', async () => {
    const writer = registry(3);
    for (let i = 0; i < 7; i++) await writer.send('c-2', counter, { amount: 1 }, context);
    await writer.snapshotsSettled();
    expect((await store.readSnapshot('c-2'))?.revision).toBe(5n);

    const { spy, reads } = spied();
    const actors = registry(3, spy);
    expect(await actors.of('c-2', counter).read()).toBe(7);
    expect(reads).toEqual([5n]); // the snapshot's own revision, which the stream must have, and what follows
    expect((await actors.send('c-2', counter, { amount: 1 }, context)).state).toBe(8);
    expect((await store.readStream('c-2')).events).toHaveLength(8);
  });

  it('loads a stream after a snapshot page by page', async () => {
    await history('c-3', 1200);
    await store.writeSnapshot('c-3', { revision: 99n, schemaVersion: 2, state: 100 });
    const { spy, reads } = spied();
    expect(await registry(5000, spy).of('c-3', counter).read()).toBe(1200);
    expect(reads).toEqual([99n, 599n, 1099n]);
  });

  it('ignores a snapshot of another version, replays, and writes one of its own', async () => {
    await history('c-4', 7);
    await store.writeSnapshot('c-4', { revision: 5n, schemaVersion: 1, state: 1000 });
    const { spy, reads } = spied();
    const actors = registry(3, spy);
    expect(await actors.of('c-4', counter).read()).toBe(7);
    expect(reads).toEqual([0n]);
    await actors.snapshotsSettled();
    expect(await store.readSnapshot('c-4')).toEqual({ revision: 6n, schemaVersion: 2, state: 7 });
  });

  it('replays when the snapshot is corrupt, cannot be read, or is ahead of its stream', async () => {
    await history('c-5', 7);
    const replays = async (s: EventStore) => {
      const { spy, reads } = spied(s === store ? {} : { readSnapshot: s.readSnapshot });
      expect(await registry(100, spy).of('c-5', counter).read()).toBe(7);
      return reads;
    };
    await store.writeSnapshot('c-5', { revision: 5n, schemaVersion: 2, state: 'not a count' });
    expect(await replays(store)).toEqual([0n]);

    await store.writeSnapshot('c-5', { revision: 5n, schemaVersion: 2, state: 6 });
    const other = new Database(join(folder, 'events.sqlite'));
    other.prepare("UPDATE snapshots SET state = '{\"trunc' WHERE stream = 'c-5'").run();
    other.close();
    expect(await replays(store)).toEqual([0n]);

    const unreadable = { readSnapshot: () => Promise.reject(new Error('store down')) } as unknown as EventStore;
    expect(await replays(unreadable)).toEqual([0n]);

    await store.writeSnapshot('c-5', { revision: 100n, schemaVersion: 2, state: 999 });
    expect(await replays(store)).toEqual([100n, 0n]);

    await store.writeSnapshot('c-missing', { revision: 3n, schemaVersion: 2, state: 999 });
    expect(await registry(100).of('c-missing', counter).read()).toBe(0);
    expect(warnings).toHaveBeenCalledTimes(5);
  });

  it('still checks a snapshot against its stream when the first read after restoring it failed', async () => {
    await history('c-8', 3);
    await store.writeSnapshot('c-8', { revision: 50n, schemaVersion: 2, state: 999 });
    let failNext = true;
    const { spy, reads } = spied();
    const flaky: EventStore = Object.assign(Object.create(spy), {
      readStream: (...args: Parameters<EventStore['readStream']>) => {
        if (!failNext) return spy.readStream(...args);
        failNext = false;
        return Promise.reject(new Error('store down'));
      },
    });
    const actors = registry(100, flaky);
    await expect(actors.of('c-8', counter).read()).rejects.toThrow('store down');
    expect(await actors.of('c-8', counter).read()).toBe(3);
    expect(reads).toEqual([50n, 0n]);
  });

  it('neither reads nor writes snapshots with snapshotEvery 0', async () => {
    const readSnapshot = jest.fn(() => Promise.resolve(undefined));
    const writeSnapshot = jest.fn(() => Promise.resolve());
    const { spy, reads } = spied({ readSnapshot, writeSnapshot });
    const actors = registry(0, spy);
    for (let i = 0; i < 5; i++) await actors.send('c-6', counter, { amount: 1 }, context);
    expect(await registry(0, spy).of('c-6', counter).read()).toBe(5);
    await actors.snapshotsSettled();
    expect(reads).toEqual([0n, 0n]);
    expect(readSnapshot).not.toHaveBeenCalled();
    expect(writeSnapshot).not.toHaveBeenCalled();
  });

  it('writes one snapshot of a stream at a time; a failed one is logged, and the commands go on', async () => {
    const started: StreamSnapshot[] = [];
    let fail!: (error: Error) => void;
    const writeSnapshot = (_stream: string, snapshot: StreamSnapshot) => {
      started.push(snapshot);
      return new Promise<void>((_, reject) => (fail = reject));
    };
    const actors = registry(2, spied({ writeSnapshot }).spy);
    const detached = actors.of('c-7', { ...counter, cacheActors: false }); // another actor of the same stream
    for (let i = 0; i < 2; i++) await actors.send('c-7', counter, { amount: 1 }, context);
    await new Promise((resolve) => setImmediate(resolve));
    // Due again at revision 3, for this actor and for another one of the same stream: both wait their turn.
    for (let i = 0; i < 2; i++) await actors.send('c-7', counter, { amount: 1 }, context);
    await detached.read();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.map((s) => s.revision)).toEqual([1n]);

    fail(new Error('disk full'));
    await actors.snapshotsSettled();
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('disk full'));
    expect((await actors.send('c-7', counter, { amount: 1 }, context)).state).toBe(5);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.map((s) => s.revision)).toEqual([1n, 4n]);
    fail(new Error('still full'));
    await actors.snapshotsSettled();
  });
});
