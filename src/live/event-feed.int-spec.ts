import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogPageRequest } from '../event-store/event-store';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { Slots } from '../shared/slots';
import { EventFeed, FeedSink } from './event-feed';
import { FlushPacing } from './flush-pacing';

/** A sink that keeps what it is written; while `full` it takes nothing more until `drain()`. */
class TestSink implements FeedSink {
  readonly chunks: string[] = [];
  ended = false;
  full = false;
  /** Takes one write, then stays full: a client that stopped reading. */
  stopsReading = false;
  private waiters: Array<() => void> = [];

  write(chunk: string | Buffer): boolean {
    this.chunks.push(chunk.toString());
    if (this.stopsReading) this.full = true;
    return !this.full;
  }
  writeShared(chunk: { bytes: Buffer }): boolean {
    return this.write(chunk.bytes);
  }
  drained(): Promise<void> {
    if (!this.full || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  get isClosed(): boolean {
    return this.ended;
  }
  end(): void {
    this.ended = true;
    this.drain();
  }
  drain(): void {
    this.full = false;
    for (const wake of this.waiters.splice(0)) wake();
  }
  /** The positions of the messages written, in order. */
  get positions(): number[] {
    return [...this.chunks.join('').matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
  }
}

describe('EventFeed catch-ups', () => {
  let folder: string;
  let store: SqliteEventStore;
  let reads: LogPageRequest[];
  const all = { key: 'all', filter: {} };

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'event-feed-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    // Twenty events of about 10 KB each.
    for (let i = 0; i < 20; i++) {
      const event = {
        id: randomUUID(),
        type: 'Big',
        data: { i, text: 'x'.repeat(10_000) },
        metadata: { schemaVersion: 1 },
      };
      await store.append(`big-${i}`, [event], { expected: 'no_stream' });
    }
    reads = [];
    const readLogJson = store.readLogJson.bind(store);
    store.readLogJson = (request) => (reads.push(request), readLogJson(request));
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const feedWith = (slots: Slots, slowReaderMs = 10_000) =>
    new EventFeed(
      store,
      {
        live: (e) => `id: ${e.position}\ndata: live\n\n`,
        stored: (e) => `id: ${e.position}\ndata: ${e.dataJson.toString()}\n\n`,
      },
      { slots, sliceBytes: 25_000, slowReaderMs },
    );

  it('catches up in slices bounded by bytes, every event once and in order', async () => {
    const feed = feedWith(new Slots(4));
    const sink = new TestSink();
    await feed.subscribe(all, sink, 0n);
    await waitFor(() => sink.positions.length === 20);
    expect(sink.positions).toEqual([...Array(20).keys()].map((i) => i + 1));
    expect(reads.length).toBeGreaterThanOrEqual(8);
    for (const read of reads) expect(read.maxBytes).toBe(25_000);
    await feed.stop();
  });

  it('reads for one catch-up at a time with one slot: a sink that takes nothing holds it, then is ended', async () => {
    const feed = feedWith(new Slots(1), 200);
    const stuck = new TestSink();
    stuck.stopsReading = true;
    const waiting = new TestSink();
    await feed.subscribe(all, stuck, 0n);
    await waitFor(() => reads.length === 1);
    await feed.subscribe(all, waiting, 0n);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The stuck sink holds the only slot: the other subscriber has read nothing yet.
    expect(reads).toHaveLength(1);
    expect(waiting.chunks).toEqual([]);
    await waitFor(() => stuck.ended);
    await waitFor(() => waiting.positions.length === 20);
    expect(stuck.positions.length).toBeLessThan(20);
    await feed.stop();
  });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('EventFeed live flushes', () => {
  let folder: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'event-feed-live-'));
    store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const append = (i: number) =>
    store.append(`live-${i}`, [{ id: randomUUID(), type: 'Live', data: { i }, metadata: { schemaVersion: 1 } }], {
      expected: 'no_stream',
    });

  it('writes the commits that come within the pacing interval together, in one write per subscriber', async () => {
    const pacing = { intervalMs: () => 200, flushed: jest.fn() };
    const feed = new EventFeed(
      store,
      { live: (e) => `id: ${e.position}\ndata: live\n\n`, stored: () => '' },
      { slots: new Slots(1), sliceBytes: 25_000, slowReaderMs: 10_000 },
      () => undefined,
      pacing as unknown as FlushPacing,
    );
    const sink = new TestSink();
    const written: number[] = [];
    const write = sink.write.bind(sink);
    sink.write = (chunk) => (written.push(performance.now()), write(chunk));
    await feed.subscribe({ key: 'all', filter: {} }, sink, await feed.head());

    await append(1);
    await waitFor(() => sink.positions.length === 1);
    await append(2);
    await append(3);
    await waitFor(() => sink.positions.length === 3);

    expect(sink.chunks).toHaveLength(2);
    expect(sink.positions).toEqual([1, 2, 3]);
    expect(written[1] - written[0]).toBeGreaterThanOrEqual(190);
    expect(pacing.flushed).toHaveBeenCalledTimes(2);
    expect(pacing.flushed.mock.calls).toEqual([[1], [2]]);
    // Stopping writes what waits for a paced flush.
    await append(4);
    while ((await feed.head()) < 4n) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sink.positions).toEqual([1, 2, 3]);
    await feed.stop();
    expect(sink.positions).toEqual([1, 2, 3, 4]);
  });
});
