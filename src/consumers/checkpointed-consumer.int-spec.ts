import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { eventually } from '../../test/support/eventually';
import { EventStore, RecordedEvent } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { CheckpointStore } from './checkpoint-store';
import { CheckpointedConsumer } from './checkpointed-consumer';

/** Holds every event of type `Slow` until told to finish it; fails on `Poison`. */
class TestConsumer extends CheckpointedConsumer {
  protected readonly name = 'test';
  readonly seen: string[] = [];
  readonly unfinished = new Map<string, () => void>();

  constructor(store: EventStore, checkpoints: CheckpointStore) {
    super(store, checkpoints);
  }

  start(): Promise<void> {
    return this.follow();
  }

  protected handle(events: RecordedEvent[]): void {
    for (const event of events) {
      if (event.type === 'Poison') throw new Error('cannot handle Poison');
      this.seen.push(event.id);
      if (event.type === 'Slow') this.unfinished.set(event.id, this.hold(event));
    }
  }
}

/** A consumer whose checkpoint may lag a minute behind. */
class LaggingConsumer extends TestConsumer {
  protected override readonly checkpointEveryMs = 60_000;
}

class MemoryCheckpoints implements CheckpointStore {
  readonly saved: bigint[] = [];
  load(): bigint {
    return this.saved[this.saved.length - 1] ?? 0n;
  }
  save(_name: string, position: bigint): void {
    this.saved.push(position);
  }
}

describe('checkpointed consumer', () => {
  let folder: string;
  let store: SqliteEventStore;
  const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } });

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'consumer-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('commits only up to the lowest event it holds, whatever order they finish in, and reads on from there', async () => {
    const events = ['Quick', 'Slow', 'Quick', 'Slow', 'Quick'].map(event);
    await store.append('s-1', events, { expected: 'no_stream' });
    const checkpoints = new MemoryCheckpoints();
    const consumer = new TestConsumer(store, checkpoints);
    await consumer.start();
    expect(checkpoints.saved).toEqual([1n]);

    consumer.unfinished.get(events[3].id)!();
    expect(checkpoints.saved).toEqual([1n]);
    consumer.unfinished.get(events[1].id)!();
    expect(checkpoints.saved).toEqual([1n, 5n]);
    await consumer.stopFollowing();

    await store.append('s-1', [event('Slow'), event('Quick')], { expected: 4n });
    const restarted = new TestConsumer(store, checkpoints);
    await restarted.start();
    expect(restarted.seen).toHaveLength(2);
    expect(checkpoints.saved).toEqual([1n, 5n]);
    await restarted.stopFollowing();

    const again = new TestConsumer(store, checkpoints);
    await again.start();
    expect(again.seen).toHaveLength(2); // the event held when it stopped comes again
    await again.stopFollowing();
  });

  it('with checkpointEveryMs, writes the checkpoint once a while, and at once from stopFollowing on', async () => {
    await store.append('s-1', [event('Quick')], { expected: 'no_stream' });
    await store.append('s-1', [event('Slow')], { expected: 0n });
    const checkpoints = new MemoryCheckpoints();
    const consumer = new LaggingConsumer(store, checkpoints);
    await consumer.start();
    await store.append('s-1', [event('Quick')], { expected: 1n });
    await eventually(() => expect(consumer.seen).toHaveLength(3));
    expect(checkpoints.saved).toEqual([]);

    await consumer.stopFollowing();
    expect(checkpoints.saved).toEqual([1n]); // below the event still held
    consumer.unfinished.get(consumer.seen[1])!();
    expect(checkpoints.saved).toEqual([1n, 3n]);
  });

  it('stops at a batch it cannot handle, its checkpoint before that batch', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    await store.append('s-1', [event('Quick')], { expected: 'no_stream' });
    const checkpoints = new MemoryCheckpoints();
    const consumer = new TestConsumer(store, checkpoints);
    await consumer.start();
    await store.append('s-1', [event('Quick'), event('Poison')], { expected: 0n });
    await eventually(() => expect(consumer.failed).toBe(true));
    expect(checkpoints.saved).toEqual([1n]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('cannot handle Poison'));
    errors.mockRestore();
  });
});
