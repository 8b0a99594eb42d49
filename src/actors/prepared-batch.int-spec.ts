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
/** Adds; refuses a negative amount. */
const counter: Decider<number, { amount: number }, Added> = {
  initialState: 0,
  decide: (total, { amount }) => {
    if (amount < 0) throw new DomainError('unprocessable', 'a negative amount');
    return [{ type: 'Added', data: { amount, total: total + amount } }];
  },
  evolve: (total, event) => total + event.data.amount,
};
const context = { correlationId: 'c', causationId: 'c' };
const add = (stream: string, amount: number) => ({ stream, command: { amount }, context });
const noOpens = { opens: undefined };
const NOW = new Date('2026-03-02T09:01:00.000Z');

function stateOf(outcome: BatchOutcome<number, Added>): number {
  if ('error' in outcome) throw outcome.error;
  return outcome.ok.state;
}

/** The same store without prepareBatch and appendPrepared, as EventStoreDB's is. */
function withoutPreparing(store: EventStore): EventStore {
  return new Proxy(store, {
    get: (target, key) => (key === 'prepareBatch' || key === 'appendPrepared' ? undefined : Reflect.get(target, key)),
  });
}

describe.each([
  ['the SQLite store, which encodes them ahead', (store: EventStore) => store, 'appendPrepared'],
  ['a store that cannot prepare appends', withoutPreparing, 'appendBatch'],
] as const)('actors: a batch decided ahead, then sent, on %s', (_, storeOf, commits) => {
  let folder: string;
  let sqlite: SqliteEventStore;
  let store: EventStore;
  let actors: ActorRegistry;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'prepared-batch-'));
    sqlite = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    store = storeOf(sqlite);
    actors = new ActorRegistry(store, new TestClock(), new SequentialIds(), {
      cacheSize: 100,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
    });
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const totals = async (streams: string[]) =>
    Promise.all(streams.map(async (stream) => (await sqlite.readStream(stream)).events.map((e) => e.data.total)));

  it('writes nothing when it prepares, then commits the commands wanted in one commit when sent', async () => {
    await actors.send('count-0', counter, { amount: 5 }, context);
    const batch = await actors.prepareBatch(
      counter,
      [add('count-0', 1), add('count-1', 2), add('count-2', 3)],
      noOpens,
      NOW,
    );
    expect(await totals(['count-0', 'count-1', 'count-2'])).toEqual([[5], [], []]);
    const commit = jest.spyOn(sqlite, commits);

    const [outcomes] = await actors.sendPrepared([{ batch, wanted: [0, 2] }]);

    expect(outcomes.map(stateOf)).toEqual([6, 3]);
    expect(commit).toHaveBeenCalledTimes(1);
    expect(await totals(['count-0', 'count-1', 'count-2'])).toEqual([[5, 6], [], [3]]);
    const written = [(await sqlite.readStream('count-0')).events[1], (await sqlite.readStream('count-2')).events[0]];
    expect(written[0].recordedAt).toEqual(written[1].recordedAt);
    // The actors took what was written: the next command decides on it.
    expect((await actors.send('count-2', counter, { amount: 1 }, context)).state).toBe(4);
  });

  it('decides again when sent a command whose stream moved on since, and answers a refusal then', async () => {
    const batch = await actors.prepareBatch(counter, [add('count-0', 1), add('count-1', -1)], noOpens, NOW);
    await actors.send('count-0', counter, { amount: 10 }, context);

    const [outcomes] = await actors.sendPrepared([{ batch, wanted: [0, 1] }]);

    expect(stateOf(outcomes[0])).toBe(11);
    expect('error' in outcomes[1] && outcomes[1].error).toBeInstanceOf(DomainError);
    expect(await totals(['count-0', 'count-1'])).toEqual([[10, 11], []]);
  });

  it('sends a batch once', async () => {
    const batch = await actors.prepareBatch(counter, [add('count-0', 1)], noOpens, NOW);
    await actors.sendPrepared([{ batch, wanted: [0] }]);

    await expect(actors.sendPrepared([{ batch, wanted: [0] }])).rejects.toThrow('A prepared batch is sent once');
    expect(await totals(['count-0'])).toEqual([[1]]);
  });
});
