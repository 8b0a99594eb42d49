import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { RecordedEvent } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { Projection } from './projection';
import { AppliedEvents } from './applied-events';
import { ProjectionRunner } from './projection-runner';
import { ReadYourWrites } from './read-your-writes';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store';
import { openReadDatabase } from './read-database';

/** Counts events per stream in a table, and remembers every event it was handed. */
class CountingProjection implements Projection {
  readonly name = 'counting';
  readonly applied: RecordedEvent[] = [];
  failOn?: string;

  constructor(private readonly db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS counts (stream TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  }

  apply(event: RecordedEvent): void {
    if (event.type === this.failOn) throw new Error(`cannot apply ${event.type}`);
    this.applied.push(event);
    this.db.prepare('INSERT INTO counts VALUES (?, 1) ON CONFLICT (stream) DO UPDATE SET n = n + 1').run(event.stream);
  }

  counts(): Record<string, number> {
    const rows = this.db.prepare('SELECT stream, n FROM counts ORDER BY stream').all() as Array<{
      stream: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.stream, r.n]));
  }
}

/** The same, naming the one event type it uses. */
class WantedProjection extends CountingProjection {
  readonly eventTypes = ['Wanted'];
}

describe('projection runner', () => {
  let folder: string;
  let store: SqliteEventStore;
  const event = (type = 'Happened') => ({ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } });

  /** The runner, the after-commit bus it tells and the read-your-writes waiter on it. */
  function runnerOn(db: Database.Database) {
    const applied = new AppliedEvents();
    const writes = new ReadYourWrites(applied, { readYourWritesTimeoutMs: 1000 });
    return { runner: new ProjectionRunner(store, new SqliteCheckpointStore(db), db, applied), applied, writes };
  }

  function open() {
    const db = openReadDatabase(join(folder, 'read.sqlite'));
    const projection = new CountingProjection(db);
    const { runner, writes } = runnerOn(db);
    runner.register(projection);
    return { db, projection, runner, writes };
  }

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'projections-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('catches up before start resolves, then follows live appends; waitFor resolves at the position', async () => {
    await store.append('a', [event(), event()], { expected: 'no_stream' });
    const { db, projection, runner, writes } = open();
    await runner.start();
    expect(projection.counts()).toEqual({ a: 2 });

    const { position } = await store.append('b', [event()], { expected: 'no_stream' });
    await expect(writes.waitFor(position)).resolves.toBe(true);
    expect(projection.counts()).toEqual({ a: 2, b: 1 });
    await runner.stop();
    db.close();
  });

  it('resumes from its checkpoint after a restart, applying nothing twice', async () => {
    await store.append('a', [event(), event()], { expected: 'no_stream' });
    const first = open();
    await first.runner.start();
    await first.runner.stop();
    first.db.close();

    await store.append('a', [event()], { expected: 1n });
    const second = open();
    await second.runner.start();
    expect(second.projection.applied).toHaveLength(1);
    expect(second.projection.counts()).toEqual({ a: 3 });
    await second.runner.stop();
    second.db.close();
  });

  it('commits a batch with its checkpoint or not at all', async () => {
    await store.append('a', [event(), event('Poison'), event()], { expected: 'no_stream' });
    const { db, projection, runner } = open();
    projection.failOn = 'Poison';
    await expect(runner.start()).rejects.toThrow('cannot apply Poison');
    expect(runner.failed).toBe(true);
    expect(projection.counts()).toEqual({});
    expect(db.prepare('SELECT count(*) AS n FROM checkpoints').get()).toEqual({ n: 0 });
    await runner.stop();
    db.close();
  });

  it('hands a projection only the event types it names, catching up and live; the bus gets every event live', async () => {
    await store.append('a', [event('Wanted'), event('Other'), event('Wanted')], { expected: 'no_stream' });
    const db = openReadDatabase(join(folder, 'read.sqlite'));
    const projection = new WantedProjection(db);
    const { runner, applied, writes } = runnerOn(db);
    runner.register(projection);
    const seen: string[] = [];
    applied.onApplied((events) => seen.push(...events.map((e) => e.type)));
    await runner.start();
    expect(projection.applied.map((e) => e.type)).toEqual(['Wanted', 'Wanted']);
    expect(runner.position).toBe(3n);

    await store.append('b', [event('Other')], { expected: 'no_stream' });
    const { position } = await store.append('c', [event('Wanted')], { expected: 'no_stream' });
    await expect(writes.waitFor(position)).resolves.toBe(true);
    expect(projection.applied.map((e) => e.type)).toEqual(['Wanted', 'Wanted', 'Wanted']);
    expect(seen).toEqual(['Wanted', 'Wanted', 'Other', 'Wanted']);
    expect(runner.position).toBe(5n);
    await runner.stop();
    db.close();
  });

  it('tells a waiting writer when the read models did not catch up in time', async () => {
    const { db, runner, writes } = open();
    await runner.start();
    await expect(writes.waitFor(10_000n, 30)).resolves.toBe(false);
    await runner.stop();
    db.close();
  });
});
