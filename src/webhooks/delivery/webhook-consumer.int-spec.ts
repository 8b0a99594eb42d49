import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../../test/support/eventually';
import { CheckpointStore } from '../../consumers/checkpoint-store';
import { RecordedEvent } from '../../event-store/event-store';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { WebhookTarget } from '../queries/webhooks.read-model';
import { MAX_BATCH, MAX_BUFFERED, WebhookConsumer, checkpointName } from './webhook-consumer';

class MemoryCheckpoints implements CheckpointStore {
  readonly positions = new Map<string, bigint>();
  load(name: string): bigint {
    return this.positions.get(name) ?? 0n;
  }
  save(name: string, position: bigint): void {
    this.positions.set(name, position);
  }
}

const target = (events: string[], startPosition = 0n): WebhookTarget => ({
  id: 'whk_1',
  url: 'https://example.com/hook',
  events,
  description: null,
  enabled: true,
  disabledReason: null,
  createdAt: '',
  updatedAt: '',
  encryptedSecret: '',
  startPosition,
});

/** One webhook's consumer on a real SQLite store, with a `deliver` the test answers by hand. */
describe('webhook consumer', () => {
  let folder: string;
  let store: SqliteEventStore;
  let checkpoints: MemoryCheckpoints;
  const event = (type: string, n: number) => ({ id: randomUUID(), type, data: { n }, metadata: { schemaVersion: 1 } });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'webhook-consumer-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 20 });
    checkpoints = new MemoryCheckpoints();
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads ahead at most MAX_BUFFERED events while its receiver hangs, and keeps its checkpoint below them', async () => {
    const types = Array.from({ length: 2000 }, (_, n) => (n % 2 ? 'Other' : 'Wanted'));
    await store.append('s-1', types.map(event), { expected: 'no_stream' });
    const batches: RecordedEvent[][] = [];
    let answer!: (done: number) => void;
    const consumer = new WebhookConsumer('whk_1', 0n, {
      store,
      checkpoints,
      target: () => target(['Wanted']),
      deliver: (_id, batch, signal) => {
        batches.push(batch);
        return new Promise((resolve) => {
          answer = resolve;
          signal.addEventListener('abort', () => resolve(0));
        });
      },
    });
    await eventually(() => expect(batches).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 200)); // time to read further, were it unbounded
    expect(consumer.buffered).toBe(MAX_BUFFERED);
    expect(batches[0].map((e) => e.data.n)).toEqual(Array.from({ length: MAX_BATCH }, (_, i) => 2 * i));

    answer(MAX_BATCH);
    await eventually(() => expect(batches).toHaveLength(2));
    expect(batches[1][0].data.n).toBe(2 * MAX_BATCH);
    // Done with the first batch: the checkpoint is just before the second's first event.
    expect(checkpoints.load(checkpointName('whk_1'))).toBe(batches[1][0].position - 2n);
    expect(consumer.buffered).toBeLessThanOrEqual(MAX_BUFFERED);
    await consumer.stop();
  });

  it('starts after its position, skips what it is not sent, and takes new events as they are applied', async () => {
    const before = await store.append('s-1', [event('Wanted', 0), event('Wanted', 1)], { expected: 'no_stream' });
    const sent: number[] = [];
    const consumer = new WebhookConsumer('whk_1', before.position - 1n, {
      store,
      checkpoints,
      target: () => target(['Want*'], before.position - 1n),
      deliver: async (_id, batch) => {
        sent.push(...batch.map((e) => e.data.n as number));
        return batch.length;
      },
    });
    await eventually(() => expect(sent).toEqual([1]));
    const appended = await store.append('s-2', [event('Other', 2), event('Wanted', 3)], { expected: 'no_stream' });
    const { events } = await store.readStream('s-2');
    consumer.offer(events, before.position);
    await eventually(() => expect(sent).toEqual([1, 3]));
    await consumer.stop();
    expect(checkpoints.load(checkpointName('whk_1'))).toBe(appended.position);
  });
});
