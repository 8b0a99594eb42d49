import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/support/eventually';
import { ConcurrencyError, RecordedEvent, StreamAppend } from '../event-store';
import { PrefixedEventStore } from '../prefixed-event-store';
import { withSealing } from '../sealing/sealing-event-store';
import { SubjectKeys } from '../sealing/subject-keys';
import { SqliteEventStore } from './sqlite-event-store';

const event = (data: Record<string, unknown>) => ({
  id: randomUUID(),
  type: 'T',
  data,
  metadata: { schemaVersion: 1 },
});
const append = (stream: string, data: Record<string, unknown> = { stream }): StreamAppend[] => [
  { stream, events: [event(data)], expected: 'no_stream' },
];

/** Appends encoded ahead of their commit (prepareBatch), committed later (appendPrepared), on the real SQLite store. */
describe('sqlite event store: prepared appends', () => {
  let folder: string;
  let store: SqliteEventStore;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'es-prepared-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('commits the kept appends of several prepared batches in one commit, each with its own outcome', async () => {
    const handed: RecordedEvent[] = [];
    const subscription = store.subscribe({}, { onEvents: (events) => void handed.push(...events) });
    const first = store.prepareBatch([append('a-0'), append('a-1'), append('a-2', { n: 1n }), append('a-3')]);
    const second = store.prepareBatch([append('b-0'), append('b-1')]);
    expect(await store.readAll()).toEqual([]); // nothing is written before the commit
    await store.append('a-3', [event({ before: true })], { expected: 'no_stream' });

    const outcomes = await store.appendPrepared([
      { appends: first, keep: [true, false, true, true] },
      { appends: second, keep: [true, true] },
    ]);
    expect(outcomes.map((outcome) => ('ok' in outcome ? 'ok' : outcome.error))).toEqual([
      'ok',
      expect.objectContaining({ message: expect.stringContaining('BigInt') }),
      expect.any(ConcurrencyError),
      'ok',
      'ok',
    ]);
    const read = await store.readAll();
    expect(read.map((e) => e.stream)).toEqual(['a-3', 'a-0', 'b-0', 'b-1']);
    // One commit: its events carry one time.
    expect(new Set(read.slice(1).map((e) => e.recordedAt.getTime())).size).toBe(1);
    expect(read[1].data).toEqual({ stream: 'a-0' });
    await eventually(() => expect(handed).toEqual(read));
    await subscription.stop();
  });

  it('commits prepared appends once, and only on the store that prepared them', async () => {
    const prepared = store.prepareBatch([append('once-0')]);
    await store.appendPrepared([{ appends: prepared, keep: [true] }]);
    await expect(store.appendPrepared([{ appends: prepared, keep: [true] }])).rejects.toThrow('commits once');
    const other = new SqliteEventStore({ file: join(folder, 'other.sqlite') });
    await expect(other.appendPrepared([{ appends: { count: 1 }, keep: [true] }])).rejects.toThrow('Not prepared');
    await other.close();
    expect((await store.readAll()).map((e) => e.stream)).toEqual(['once-0']);
  });

  it('seals content about a subject as it is prepared, behind the sealing store', async () => {
    const keys = new SubjectKeys(join(folder, 'subject-keys.sqlite'), 'a-data-key-secret-of-more-than-32-characters');
    const sealing = withSealing(store, keys);
    const queued = { type: 'AgentRunQueued', data: { task: 'Remember Ada', context: { subjectId: 'ada' } } };
    const parts = [{ stream: 'agentrun-1', events: [{ ...event({}), ...queued }], expected: 'no_stream' as const }];
    const prepared = sealing.prepareBatch!([parts]);
    await sealing.appendPrepared!([{ appends: prepared, keep: [true] }]);
    const [stored] = await store.readAll();
    expect(JSON.stringify(stored.data)).not.toContain('Remember Ada');
    expect((await sealing.readAll())[0].data).toEqual(queued.data);
    keys.destroyKeys('ada');
    expect((await sealing.readAll())[0].data.task).toEqual({ forgotten: true });
    keys.close();
  });

  it('prefixes the streams it prepares behind STREAM_PREFIX, and names a conflict without the prefix', async () => {
    const prefixed = new PrefixedEventStore(store, 'staging');
    await prefixed.append('taken', [event({})], { expected: 'no_stream' });
    const prepared = prefixed.prepareBatch!([append('fresh'), append('taken')]);

    const outcomes = await prefixed.appendPrepared!([{ appends: prepared, keep: [true, true] }]);

    expect('ok' in outcomes[0]).toBe(true);
    expect('error' in outcomes[1] && outcomes[1].error).toMatchObject({ stream: 'taken' });
    expect((await store.readAll()).map((e) => e.stream)).toEqual(['staging-taken', 'staging-fresh']);
  });

  it('goes into the commit after the one in flight, beside the appends waiting for it', async () => {
    const prepared = store.prepareBatch([append('p-0'), append('p-1')]);
    const inFlight = store.append('x-0', [event({})], { expected: 'no_stream' });
    const waiting = store.append('x-1', [event({})], { expected: 'no_stream' });
    const outcomes = await store.appendPrepared([{ appends: prepared, keep: [true, true] }]);
    await Promise.all([inFlight, waiting]);
    expect(outcomes.every((outcome) => 'ok' in outcome)).toBe(true);
    const read = await store.readAll();
    expect(read.map((e) => e.stream)).toEqual(['x-0', 'x-1', 'p-0', 'p-1']);
    expect(read[1].recordedAt).toEqual(read[2].recordedAt);
  });
});
