import { randomUUID } from 'node:crypto';
import { ConcurrencyError, EventStore, NewEvent, RecordedEvent } from './event-store';

/**
 * The store contract as a test suite: every adapter runs it (see sqlite/sqlite-event-store.int-spec.ts).
 * Streams get a unique prefix per test so the suite also runs against a shared, non-empty real server.
 */
export function describeEventStoreContract(
  adapter: string,
  open: () => Promise<EventStore>,
  close: (store: EventStore) => Promise<void>,
): void {
  describe(`event store contract: ${adapter}`, () => {
    let store: EventStore;
    let prefix: string;

    beforeEach(async () => {
      store = await open();
      prefix = `contract${randomUUID().replace(/-/g, '')}-`;
    });
    afterEach(() => close(store));

    const event = (type = 'ThingHappened', data: Record<string, unknown> = {}): NewEvent => ({
      id: randomUUID(),
      type,
      data,
      metadata: { correlationId: 'corr-1', causationId: 'cause-1', schemaVersion: 1 },
    });

    it('appends to a new stream and reads the events back with their envelope', async () => {
      const stream = `${prefix}a`;
      const first = event('ThingHappened', { n: 1, nested: { ok: true } });
      const result = await store.append(stream, [first, event()], { expected: 'no_stream' });
      expect(result.nextRevision).toBe(1n);

      const read = await store.readStream(stream);
      expect(read.exists).toBe(true);
      expect(read.events.map((e) => e.revision)).toEqual([0n, 1n]);
      expect(read.events[0]).toMatchObject({
        id: first.id,
        type: 'ThingHappened',
        stream,
        data: { n: 1, nested: { ok: true } },
        metadata: { correlationId: 'corr-1', causationId: 'cause-1', schemaVersion: 1 },
      });
      expect(read.events[0].recordedAt).toBeInstanceOf(Date);
      expect(read.events[1].position).toBe(result.position);
      expect(read.events[1].position > read.events[0].position).toBe(true);
    });

    it('reads a missing stream as empty', async () => {
      await expect(store.readStream(`${prefix}missing`)).resolves.toEqual({ exists: false, events: [] });
    });

    it('reads a stream from a revision, at most maxCount events', async () => {
      const stream = `${prefix}paged`;
      await store.append(stream, [event(), event(), event(), event()], { expected: 'no_stream' });
      const read = await store.readStream(stream, { fromRevision: 1n, maxCount: 2 });
      expect(read.exists).toBe(true);
      expect(read.events.map((e) => e.revision)).toEqual([1n, 2n]);
      const pastEnd = await store.readStream(stream, { fromRevision: 9n });
      expect(pastEnd).toEqual({ exists: true, events: [] });
    });

    it('checks the expected revision and changes nothing on a mismatch', async () => {
      const stream = `${prefix}expect`;
      await expect(store.append(stream, [event()], { expected: 'stream_exists' })).rejects.toBeInstanceOf(
        ConcurrencyError,
      );
      await expect(store.append(stream, [event()], { expected: 0n })).rejects.toBeInstanceOf(ConcurrencyError);
      await store.append(stream, [event()], { expected: 'no_stream' });

      const mismatch = await store.append(stream, [event(), event()], { expected: 5n }).catch((e: unknown) => e);
      expect(mismatch).toBeInstanceOf(ConcurrencyError);
      expect(mismatch).toMatchObject({ stream, expected: 5n, actual: 0n });
      await expect(store.append(stream, [event()], { expected: 'no_stream' })).rejects.toBeInstanceOf(ConcurrencyError);

      expect((await store.append(stream, [event()], { expected: 0n })).nextRevision).toBe(1n);
      expect((await store.append(stream, [event()], { expected: 'stream_exists' })).nextRevision).toBe(2n);
      expect((await store.append(stream, [event()], { expected: 'any' })).nextRevision).toBe(3n);
      expect((await store.readStream(stream)).events).toHaveLength(4);
    });

    it('treats appending the same event ids again as a no-op', async () => {
      const stream = `${prefix}idem`;
      const events = [event(), event()];
      const first = await store.append(stream, events, { expected: 'no_stream' });
      const again = await store.append(stream, events, { expected: 'no_stream' });
      expect(again).toEqual(first);
      expect((await store.readStream(stream)).events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    });

    it('lets exactly one of several concurrent appends with the same expectation win', async () => {
      const stream = `${prefix}race`;
      await store.append(stream, [event()], { expected: 'no_stream' });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => store.append(stream, [event()], { expected: 0n })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(rejected.every((o) => o.reason instanceof ConcurrencyError)).toBe(true);
      expect((await store.readStream(stream)).events).toHaveLength(2);
    });

    it('gives concurrent appends to different streams distinct, increasing positions', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.append(`${prefix}s${i}`, [event()], { expected: 'no_stream' })),
      );
      const positions = results.map((r) => r.position);
      expect(new Set(positions).size).toBe(20);
      const all = await store.readAll({ after: 0n, maxCount: 100_000, filter: { streamPrefixes: [prefix] } });
      expect(all.map((e) => e.position)).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
    });

    it('appends to several streams in one commit, all or nothing, where the store offers it', async () => {
      if (!store.appendMultiple) return; // EventStoreDB has no multi-stream transaction
      const [a, b] = [`${prefix}multi-a`, `${prefix}multi-b`];
      await store.append(b, [event()], { expected: 'no_stream' });
      const refused = await store
        .appendMultiple([
          { stream: a, events: [event()], expected: 'no_stream' },
          { stream: b, events: [event()], expected: 'no_stream' },
        ])
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConcurrencyError);
      expect(refused).toMatchObject({ stream: b, expected: 'no_stream', actual: 0n });
      expect((await store.readStream(a)).exists).toBe(false);

      const parts = [
        { stream: a, events: [event('One'), event('Two')], expected: 'no_stream' as const },
        { stream: b, events: [event('Three')], expected: 0n },
      ];
      const results = await store.appendMultiple(parts);
      expect(results.map((r) => r.nextRevision)).toEqual([1n, 1n]);
      expect(results[1].position > results[0].position).toBe(true);
      expect(await store.appendMultiple(parts)).toEqual(results); // the same ids again: a no-op
      const all = await store.readAll({ after: 0n, maxCount: 100, filter: { streamPrefixes: [`${prefix}multi`] } });
      expect(all.map((e) => [e.stream, e.type])).toEqual([
        [b, 'ThingHappened'],
        [a, 'One'],
        [a, 'Two'],
        [b, 'Three'],
      ]);
    });

    it('appends a batch of independent appends: one refused writes nothing and stops none of the others', async () => {
      const [a, x, b] = [`${prefix}batch-a`, `${prefix}batch-x`, `${prefix}batch-b`];
      await store.append(x, [event()], { expected: 'no_stream' });
      expect(await store.appendBatch([])).toEqual([]);
      const outcomes = await store.appendBatch([
        [{ stream: a, events: [event('One'), event('Two')], expected: 'no_stream' }],
        [{ stream: x, events: [event('Late')], expected: 5n }],
        [{ stream: b, events: [event('Three')], expected: 'no_stream' }],
        [{ stream: x, events: [event('OnTime')], expected: 0n }],
      ]);
      expect(outcomes).toHaveLength(4);
      const refused = outcomes[1] as { error: unknown };
      expect(refused.error).toBeInstanceOf(ConcurrencyError);
      expect(refused.error).toMatchObject({ stream: x, expected: 5n, actual: 0n });
      const written = [outcomes[0], outcomes[2], outcomes[3]].map((outcome) => {
        if (!('ok' in outcome)) throw new Error(`refused: ${String(outcome.error)}`);
        return outcome.ok[0];
      });
      expect(written.map((result) => result.nextRevision)).toEqual([1n, 0n, 1n]);
      const [readA, readB, readX] = await Promise.all([a, b, x].map((stream) => store.readStream(stream)));
      expect(readA.events.map((e) => e.type)).toEqual(['One', 'Two']);
      expect(readA.events[1].position).toBe(written[0].position);
      expect(readB.events.map((e) => e.position)).toEqual([written[1].position]);
      expect(readX.events.map((e) => e.type)).toEqual(['ThingHappened', 'OnTime']);
    });

    it('takes a batch from an iterable that makes each append as it is asked for, read once within the call', async () => {
      const streams = [1, 2, 3].map((n) => `${prefix}lazy-${n}`);
      const taken: string[] = [];
      function* made() {
        for (const stream of streams) {
          taken.push(stream);
          yield [{ stream, events: [event('Made', { stream })], expected: 'no_stream' as const }];
        }
      }
      const outcomes = store.appendBatch(made());
      expect(taken).toEqual(streams); // all read before the call returned
      expect((await outcomes).map((outcome) => 'ok' in outcome)).toEqual([true, true, true]);
      for (const stream of streams)
        expect((await store.readStream(stream)).events.map((e) => e.data)).toEqual([{ stream }]);
    });

    it('writes none of a batch whose iterable throws while it is read, and rejects with its error', async () => {
      const [first, second] = [`${prefix}broken-1`, `${prefix}broken-2`];
      function* broken() {
        yield [{ stream: first, events: [event()], expected: 'no_stream' as const }];
        yield [{ stream: second, events: [event()], expected: 'no_stream' as const }];
        throw new Error('cannot make the third');
      }
      await expect(store.appendBatch(broken())).rejects.toThrow('cannot make the third');
      // The store goes on: a later append is written, and none of the broken batch's.
      await store.append(`${prefix}after`, [event()], { expected: 'no_stream' });
      expect((await store.readStream(`${prefix}after`)).exists).toBe(true);
      expect((await store.readStream(first)).exists).toBe(false);
      expect((await store.readStream(second)).exists).toBe(false);
    });

    it('takes appends of several streams in a batch all or nothing, and refuses them where it has no multi-stream commit', async () => {
      const [c, d, e, x] = ['c', 'd', 'e', 'x'].map((name) => `${prefix}batch-multi-${name}`);
      await store.append(x, [event()], { expected: 'no_stream' });
      const outcomes = await store.appendBatch([
        [
          { stream: c, events: [event('C')], expected: 'no_stream' },
          { stream: d, events: [event('D')], expected: 'no_stream' },
        ],
        [
          { stream: e, events: [event('E')], expected: 'no_stream' },
          { stream: x, events: [event('X')], expected: 'no_stream' },
        ],
        [{ stream: x, events: [event('Alone')], expected: 0n }],
      ]);
      expect('error' in outcomes[1]).toBe(true);
      expect((await store.readStream(e)).exists).toBe(false);
      expect(outcomes[2]).toEqual({ ok: [expect.objectContaining({ nextRevision: 1n })] });
      if (!store.appendMultiple) {
        expect('error' in outcomes[0]).toBe(true);
        expect((await store.readStream(c)).exists || (await store.readStream(d)).exists).toBe(false);
        return;
      }
      expect((outcomes[1] as { error: unknown }).error).toMatchObject({ stream: x, expected: 'no_stream', actual: 0n });
      expect(outcomes[0]).toEqual({ ok: [expect.objectContaining({ nextRevision: 0n }), expect.anything()] });
      expect((await store.readStream(d)).events.map((event) => event.type)).toEqual(['D']);
    });

    it('reads no snapshot of a stream that has none', async () => {
      await store.append(`${prefix}unsnapped`, [event()], { expected: 'no_stream' });
      expect(await store.readSnapshot(`${prefix}unsnapped`)).toBeUndefined();
      expect(await store.readSnapshot(`${prefix}missing`)).toBeUndefined();
    });

    it('keeps the snapshot written last beside its stream, leaving the stream as it was', async () => {
      const stream = `${prefix}snapped`;
      await store.append(stream, [event(), event(), event()], { expected: 'no_stream' });
      const state = { name: 'ünïcode "quoted"', list: [1, 2.5, { deep: null }], flag: true };
      await store.writeSnapshot(stream, { revision: 5_000_000_000n, schemaVersion: 1, state: { old: true } });
      await store.writeSnapshot(stream, { revision: 2n, schemaVersion: 4, state });
      expect(await store.readSnapshot(stream)).toEqual({ revision: 2n, schemaVersion: 4, state });
      await store.writeSnapshot(`${prefix}other`, { revision: 0n, schemaVersion: 1, state: null });
      expect(await store.readSnapshot(`${prefix}other`)).toEqual({ revision: 0n, schemaVersion: 1, state: null });
      expect(await store.readSnapshot(stream)).toEqual({ revision: 2n, schemaVersion: 4, state });

      expect((await store.readStream(stream)).events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      expect((await store.append(stream, [event()], { expected: 2n })).nextRevision).toBe(3n);
    });

    it('never hands a snapshot to readers of the global log nor to subscribers', async () => {
      const stream = `${prefix}private`;
      const appended = await store.append(stream, [event()], { expected: 'no_stream' });
      await store.writeSnapshot(stream, { revision: 0n, schemaVersion: 1, state: { n: 1 } });
      const ours = (events: RecordedEvent[]) => events.filter((e) => e.stream.includes(prefix));
      expect(ours(await store.readAll({ after: appended.position, maxCount: 10_000 }))).toEqual([]);

      const seen: RecordedEvent[] = [];
      const caughtUp = deferred();
      const gotMarker = deferred();
      const subscription = store.subscribe(
        { after: appended.position },
        {
          onEvents: (events) => {
            seen.push(...ours(events));
            if (seen.some((e) => e.type === 'Marker')) gotMarker.resolve();
          },
          onCaughtUp: () => caughtUp.resolve(),
        },
      );
      await within(caughtUp.promise, 'catch-up');
      await store.writeSnapshot(stream, { revision: 0n, schemaVersion: 1, state: { n: 2 } });
      await store.append(`${prefix}marker`, [event('Marker')], { expected: 'no_stream' });
      await within(gotMarker.promise, 'the marker event');
      await subscription.stop();
      expect(seen.map((e) => [e.stream, e.type])).toEqual([[`${prefix}marker`, 'Marker']]);
    });

    it('reads the global log after a position, filtered, in position order', async () => {
      const before = await store.append(`${prefix}x`, [event('Kept')], { expected: 'no_stream' });
      await store.append(`${prefix}y`, [event('Dropped'), event('Kept')], { expected: 'no_stream' });
      await store.append(`other${prefix}`, [event('Kept')], { expected: 'no_stream' });
      await store.append(`${prefix}x`, [event('Kept')], { expected: 0n });

      const all = await store.readAll({ after: 0n, maxCount: 100_000, filter: { streamPrefixes: [prefix] } });
      expect(all.map((e) => [e.stream, e.type])).toEqual([
        [`${prefix}x`, 'Kept'],
        [`${prefix}y`, 'Dropped'],
        [`${prefix}y`, 'Kept'],
        [`${prefix}x`, 'Kept'],
      ]);
      assertIncreasing(all);

      const after = await store.readAll({
        after: before.position,
        maxCount: 2,
        filter: { streamPrefixes: [prefix], eventTypes: ['Kept'] },
      });
      expect(after.map((e) => [e.stream, e.type])).toEqual([
        [`${prefix}y`, 'Kept'],
        [`${prefix}x`, 'Kept'],
      ]);
    });

    it('reads bounded pages of the log forwards and backwards, by whole stream and type, resuming at the cursor', async () => {
      const start = await store.head();
      await store.append(`${prefix}x`, [event('Kept'), event('Dropped')], { expected: 'no_stream' });
      await store.append(`${prefix}xy`, [event('Kept')], { expected: 'no_stream' });
      const last = await store.append(`${prefix}x`, [event('Kept')], { expected: 1n });
      expect(await store.head()).toBeGreaterThanOrEqual(last.position);
      const filter = { streams: [`${prefix}x`], eventTypes: ['Kept'] };

      const forward = [];
      let cursor: bigint | undefined = start;
      for (let pages = 0; pages < 100; pages++) {
        const page = await store.readLogPage({ direction: 'forward', after: cursor, maxCount: 1, filter });
        forward.push(...page.events);
        cursor = page.cursor;
        if (page.end) break;
      }
      expect(forward.map((e) => [e.stream, e.type])).toEqual([
        [`${prefix}x`, 'Kept'],
        [`${prefix}x`, 'Kept'],
      ]);
      expect(forward[1].position).toBe(last.position);

      const newest = await store.readLogPage({
        direction: 'backward',
        maxCount: 2,
        filter: { streamPrefixes: [prefix] },
      });
      expect(newest.events.map((e) => [e.stream, e.type])).toEqual([
        [`${prefix}x`, 'Kept'],
        [`${prefix}xy`, 'Kept'],
      ]);
      const older = await store.readLogPage({
        direction: 'backward',
        before: newest.cursor,
        maxCount: 10,
        filter: { streamPrefixes: [prefix] },
      });
      expect(older.events.map((e) => e.type)).toEqual(['Dropped', 'Kept']);
      expect(older.events[1].position).toBeGreaterThan(start);
    });

    it('bounds a page by the bytes of its events (at least one event), forwards and backwards, as text or parsed', async () => {
      const start = await store.head();
      const big = (n: number) => event('Big', { n, text: 'x'.repeat(1000) });
      await store.append(`${prefix}big`, [big(0), big(1), big(2), big(3), big(4)], { expected: 'no_stream' });
      const filter = { streamPrefixes: [prefix] };
      // Each event holds a little over 1,000 bytes of JSON: 2,500 bytes hold two of them.
      const read: number[] = [];
      let cursor: bigint | undefined = start;
      for (let pages = 0; pages < 20; pages++) {
        const page = await store.readLogJson({
          direction: 'forward',
          after: cursor,
          maxCount: 100,
          maxBytes: 2500,
          filter,
        });
        expect(page.events.length).toBeLessThanOrEqual(2);
        read.push(...page.events.map((e) => (JSON.parse(e.dataJson.toString()) as { n: number }).n));
        for (const e of page.events)
          expect(JSON.parse(e.metadataJson.toString())).toMatchObject({ correlationId: 'corr-1' });
        cursor = page.cursor;
        if (page.end) break;
      }
      expect(read).toEqual([0, 1, 2, 3, 4]);

      const tiny = await store.readLogPage({ direction: 'forward', after: start, maxCount: 100, maxBytes: 1, filter });
      expect(tiny.events.map((e) => e.data.n)).toEqual([0]);
      expect(tiny.end).toBe(false);
      const newest = await store.readLogPage({ direction: 'backward', maxCount: 100, maxBytes: 2500, filter });
      expect(newest.events.map((e) => e.data.n)).toEqual([4, 3]);
      expect(newest.end).toBe(false);
      // A stretch with nothing that matches is passed over, however the page is bounded.
      const none = { streams: [`${prefix}nothing`] };
      for (const direction of ['forward', 'backward'] as const) {
        const empty = await store.readLogJson({ direction, after: start, maxCount: 10, maxBytes: 2500, filter: none });
        expect(empty.events).toEqual([]);
      }
    });

    it('leaves out streams whose names start with an excluded prefix', async () => {
      const start = await store.head();
      await store.append(`${prefix}hidden-1`, [event('Kept')], { expected: 'no_stream' });
      await store.append(`${prefix}shown-1`, [event('Kept')], { expected: 'no_stream' });
      const filter = { streamPrefixes: [prefix], excludeStreamPrefixes: [`${prefix}hidden`] };
      const page = await store.readLogJson({ direction: 'forward', after: start, maxCount: 10, filter });
      expect(page.events.map((e) => e.stream)).toEqual([`${prefix}shown-1`]);
    });

    it('subscribes: catches up from a position, signals it, then delivers live events in order', async () => {
      const stream = `${prefix}sub`;
      const first = await store.append(stream, [event('One')], { expected: 'no_stream' });
      await store.append(stream, [event('Two'), event('Three')], { expected: 0n });

      const seen: RecordedEvent[] = [];
      let caughtUp = 0;
      const caughtUpOnce = deferred();
      const gotFour = deferred();
      const subscription = store.subscribe(
        { after: first.position, filter: { streamPrefixes: [prefix] } },
        {
          onEvents: (events) => {
            seen.push(...events);
            if (seen.some((e) => e.type === 'Four')) gotFour.resolve();
          },
          onCaughtUp: () => {
            caughtUp++;
            caughtUpOnce.resolve();
          },
        },
      );
      await within(caughtUpOnce.promise, 'catch-up');
      expect(seen.map((e) => e.type)).toEqual(['Two', 'Three']);
      expect(caughtUp).toBeGreaterThan(0);

      await store.append(`other${prefix}`, [event('Ignored')], { expected: 'no_stream' });
      await store.append(stream, [event('Four')], { expected: 2n });
      await within(gotFour.promise, 'live event');
      await subscription.stop();
      expect(seen.map((e) => e.type)).toEqual(['Two', 'Three', 'Four']);
      assertIncreasing(seen);
    });

    it('delivers nothing after a subscription is stopped', async () => {
      const seen: RecordedEvent[] = [];
      const caughtUp = deferred();
      const subscription = store.subscribe(
        { after: 0n, filter: { streamPrefixes: [prefix] } },
        { onEvents: (events) => void seen.push(...events), onCaughtUp: () => caughtUp.resolve() },
      );
      await within(caughtUp.promise, 'catch-up');
      await subscription.stop();
      await store.append(`${prefix}late`, [event()], { expected: 'no_stream' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([]);
    });
  });
}

function assertIncreasing(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) expect(events[i].position > events[i - 1].position).toBe(true);
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function within<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
