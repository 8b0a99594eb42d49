import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClock } from '../../test/support/test-clock';
import { SequentialIds } from '../../test/support/sequential-ids';
import { Decider, DomainError, DomainEvent } from '../domain/decider';
import { EventStore } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { ActorRegistry, DEFAULT_MAX_ATTEMPTS } from './actor-registry';
import { BatchOutcome } from './batch-sender';

type Added = DomainEvent<'Added', { amount: number; total: number }>;
/** Adds; refuses a negative amount; an amount of 0 changes nothing. */
const counter: Decider<number, { amount: number }, Added> = {
  initialState: 0,
  decide: (total, { amount }) => {
    if (amount < 0) throw new DomainError('unprocessable', 'a negative amount');
    return amount === 0 ? [] : [{ type: 'Added', data: { amount, total: total + amount } }];
  },
  evolve: (total, event) => total + event.data.amount,
};
const context = { correlationId: 'c', causationId: 'c' };

/** How many appends each batch the store is given holds, counted as the store reads them. */
function batchSizes(store: EventStore): number[] {
  const sizes: number[] = [];
  const appendBatch = store.appendBatch;
  jest.spyOn(store, 'appendBatch').mockImplementation((appends) => {
    const batch = sizes.push(0) - 1;
    return appendBatch(
      (function* () {
        for (const parts of appends) {
          sizes[batch]++;
          yield parts;
        }
      })(),
    );
  });
  return sizes;
}
const add = (stream: string, amount: number) => ({ stream, command: { amount }, context });
const streams = (count: number) => Array.from({ length: count }, (_, i) => `count-${i}`);
/** Opens `copy-<stream>` starting at the total the command reached. */
const copies = {
  opens: (events: Added[]) => [
    { stream: `copy-${events[0].data.total}`, decider: counter, command: { amount: events[0].data.total } },
  ],
};

/** Each outcome's error, as text. */
const errorsOf = (outcomes: Array<BatchOutcome<number, Added>>) =>
  outcomes.map((outcome) => 'error' in outcome && String(outcome.error));

function stateOf(outcome: BatchOutcome<number, Added>): number {
  if ('error' in outcome) throw outcome.error;
  return outcome.ok.state;
}

describe('actors: commands to many streams decided in one pass', () => {
  let folder: string;
  let store: SqliteEventStore;
  const registry = (s: EventStore = store, cacheSize = 100) =>
    new ActorRegistry(s, new TestClock(), new SequentialIds(), { cacheSize, maxAttempts: DEFAULT_MAX_ATTEMPTS });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'actor-batch-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('decides on the states in memory and appends every command in one batch, reading no stream', async () => {
    const actors = registry();
    for (const stream of streams(20)) await actors.send(stream, counter, { amount: 1 }, context);
    const batches = batchSizes(store);
    const reads = jest.spyOn(store, 'readStream');
    const outcomes = await actors.sendBatch(
      counter,
      streams(20).map((stream) => add(stream, 2)),
    );
    expect(outcomes.map(stateOf)).toEqual(Array(20).fill(3));
    expect(batches).toEqual([20]);
    expect(reads).not.toHaveBeenCalled();
    const written = await Promise.all(streams(20).map((stream) => store.readStream(stream)));
    expect(new Set(written.map(({ events }) => events[1].recordedAt.getTime())).size).toBe(1); // one commit
    // The actors took the states the pass wrote: the next command needs no read either.
    reads.mockClear();
    expect((await actors.send('count-3', counter, { amount: 1 }, context)).state).toBe(4);
    expect(reads).not.toHaveBeenCalled();
  });

  it('loads the streams not in memory first, then decides them in the same pass', async () => {
    await registry().send('count-0', counter, { amount: 5 }, context);
    const actors = registry();
    const batches = jest.spyOn(store, 'appendBatch');
    const outcomes = await actors.sendBatch(counter, [add('count-0', 1), add('count-1', 1)]);
    expect(outcomes.map(stateOf)).toEqual([6, 1]);
    expect(batches).toHaveBeenCalledTimes(1);
  });

  it('makes a command sent during the pass wait for it and decide on what it wrote, with no conflict', async () => {
    const actors = registry();
    await actors.send('count-0', counter, { amount: 1 }, context);
    const appends = jest.spyOn(store, 'append');
    const pass = actors.sendBatch(counter, [add('count-0', 2)]);
    const during = actors.send('count-0', counter, { amount: 10 }, context);
    const [[outcome], afterwards] = await Promise.all([pass, during]);
    expect(stateOf(outcome)).toBe(3);
    expect(afterwards.state).toBe(13);
    expect(appends).toHaveBeenCalledTimes(1); // decided once: it waited rather than conflicted
    expect(appends.mock.calls[0][2]).toEqual({ expected: 1n });
    expect((await store.readStream('count-0')).events.map((e) => e.data)).toEqual([
      { amount: 1, total: 1 },
      { amount: 2, total: 3 },
      { amount: 10, total: 13 },
    ]);
  });

  it('sends a command whose actor is busy after the pass, in its turn', async () => {
    const actors = registry();
    await actors.send('count-0', counter, { amount: 1 }, context);
    const before = actors.send('count-0', counter, { amount: 10 }, context);
    const [[busy, idle]] = await Promise.all([
      actors.sendBatch(counter, [add('count-0', 2), add('count-1', 2)]),
      before,
    ]);
    expect([stateOf(busy), stateOf(idle)]).toEqual([13, 2]);
  });

  it('decides a command again through its actor when another writer got there first; the others stand', async () => {
    const first = registry();
    const second = registry();
    for (const stream of streams(2)) await first.send(stream, counter, { amount: 1 }, context);
    await second.send('count-0', counter, { amount: 10 }, context); // first's state of count-0 is now stale
    const outcomes = await first.sendBatch(counter, [add('count-0', 2), add('count-1', 2)], copies);
    expect(outcomes.map(stateOf)).toEqual([13, 3]);
    expect((await store.readStream('count-0')).events.map((e) => e.data.total)).toEqual([1, 11, 13]);
    expect((await store.readStream('copy-13')).events.map((e) => e.data.total)).toEqual([13]); // opened on the retry
    expect((await store.readStream('copy-3')).events.map((e) => e.data.total)).toEqual([3]);
  });

  it('answers a refused command with its error and one that changes nothing with no events; the others are written', async () => {
    const actors = registry();
    for (const stream of streams(3)) await actors.send(stream, counter, { amount: 1 }, context);
    const [refused, unchanged, written] = await actors.sendBatch(counter, [
      add('count-0', -1),
      add('count-1', 0),
      add('count-2', 1),
    ]);
    expect('error' in refused && refused.error).toBeInstanceOf(DomainError);
    expect(unchanged).toEqual({ ok: { state: 1, events: [] } });
    expect(stateOf(written)).toBe(2);
    expect((await store.readStream('count-0')).events).toHaveLength(1);
    expect((await actors.send('count-0', counter, { amount: 1 }, context)).state).toBe(2); // not left held
  });

  it("opens new streams in the command's append, or leaves them to the caller where the store cannot", async () => {
    const actors = registry();
    const [outcome] = await actors.sendBatch(counter, [add('count-0', 4)], copies);
    if (!('ok' in outcome)) throw outcome.error;
    expect(outcome.ok.opened?.map((opened) => opened.state)).toEqual([4]);
    const [own, copy] = [(await store.readStream('count-0')).events[0], (await store.readStream('copy-4')).events[0]];
    expect(copy.recordedAt).toEqual(own.recordedAt);

    const withoutMultiple = Object.assign(Object.create(store) as EventStore, { appendMultiple: undefined });
    const [alone] = await registry(withoutMultiple).sendBatch(counter, [add('count-1', 5)], copies);
    expect('ok' in alone && alone.ok.opened).toBeUndefined();
    expect((await store.readStream('count-1')).events).toHaveLength(1);
    expect((await store.readStream('copy-5')).exists).toBe(false);
  });

  it('releases every actor when the store fails the batch: each command answers its failure, the next one reads', async () => {
    const actors = registry();
    for (const stream of streams(2)) await actors.send(stream, counter, { amount: 1 }, context);
    jest.spyOn(store, 'appendBatch').mockRejectedValueOnce(new Error('disk gone'));
    const outcomes = await actors.sendBatch(
      counter,
      streams(2).map((stream) => add(stream, 1)),
    );
    expect(errorsOf(outcomes)).toEqual(['Error: disk gone', 'Error: disk gone']);
    expect((await actors.send('count-1', counter, { amount: 1 }, context)).state).toBe(2);
  });

  it('releases every actor when the store throws instead of rejecting', async () => {
    const actors = registry();
    jest.spyOn(store, 'appendBatch').mockImplementationOnce(() => {
      throw new Error('no writer');
    });
    const outcomes = await actors.sendBatch(
      counter,
      streams(2).map((stream) => add(stream, 1)),
    );
    expect(errorsOf(outcomes)).toEqual(['Error: no writer', 'Error: no writer']);
    expect((await actors.send('count-0', counter, { amount: 1 }, context)).state).toBe(1);
  });

  it('holds at most half the cache in one pass: a larger batch goes in parts, each actor kept while held', async () => {
    const actors = registry(store, 4);
    const batches = batchSizes(store);
    const outcomes = await actors.sendBatch(
      counter,
      streams(10).map((stream) => add(stream, 1)),
    );
    expect(outcomes.map(stateOf)).toEqual(Array(10).fill(1));
    expect(batches).toEqual([2, 2, 2, 2, 2]);
    expect(actors.size).toBeLessThanOrEqual(4);
  });
});
