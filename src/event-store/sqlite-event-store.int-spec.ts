import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describeEventStoreContract } from './event-store.contract';
import { SqliteEventStore } from './sqlite-event-store';
import Database from 'better-sqlite3';
import { EventStore, RecordedEvent, StoreUnavailableError } from './event-store';

const folders = new Map<EventStore, string>();

describeEventStoreContract(
  'sqlite',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'es-contract-'));
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 20 });
    folders.set(store, folder);
    return store;
  },
  async (store) => {
    await store.close();
    rmSync(folders.get(store)!, { recursive: true, force: true });
    folders.delete(store);
  },
);

describe('sqlite event store', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'es-sqlite-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('fails an append as unavailable (a 503), not as an unknown error, when another connection holds the write lock', async () => {
    const file = join(folder, 'events.sqlite');
    const store = new SqliteEventStore({ file, busyTimeoutMs: 20 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const event = { id: randomUUID(), type: 'Tested', data: {}, metadata: { schemaVersion: 1 } };
    await expect(store.append('locked-1', [event], { expected: 'no_stream' })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    other.exec('ROLLBACK');
    other.close();
    await store.close();
  });

  const event = (type: string) => ({ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } });

  it('keeps the process alive only while a commit is in flight, so a store left open never hangs an exit', async () => {
    const ports = () => process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
    const before = ports();
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    expect(ports()).toBe(before);
    const appended = store.append('alive-1', [event('A')], { expected: 'no_stream' });
    expect(ports()).toBeGreaterThan(before);
    await appended;
    expect(ports()).toBe(before);
    await store.close();
  });

  it('keeps events across reopening the file', async () => {
    const file = join(folder, 'events.sqlite');
    const first = new SqliteEventStore({ file });
    await first.append('s-1', [event('A')], { expected: 'no_stream' });
    await first.close();
    const second = new SqliteEventStore({ file });
    expect((await second.readStream('s-1')).events.map((e) => e.type)).toEqual(['A']);
    await second.close();
  });

  it('writes a snapshot through the writer, which close() waits for, in the same file as the events', async () => {
    const file = join(folder, 'events.sqlite');
    const first = new SqliteEventStore({ file });
    await first.append('s-1', [event('A')], { expected: 'no_stream' });
    const written = first.writeSnapshot('s-1', { revision: 0n, schemaVersion: 2, state: { a: 1 } });
    await first.close();
    await written;
    const second = new SqliteEventStore({ file });
    expect(await second.readSnapshot('s-1')).toEqual({ revision: 0n, schemaVersion: 2, state: { a: 1 } });
    await expect(second.writeSnapshot('s-1', { revision: 1n, schemaVersion: 2, state: 1n })).rejects.toThrow('BigInt');
    await second.close();
  });

  it('writes the snapshots made in one turn of the event loop in one message to the writer', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const writer = (store as unknown as { writer: { postMessage(message: object): void } }).writer;
    const posted = jest.spyOn(writer, 'postMessage');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.writeSnapshot(`s-${i}`, { revision: 1n, schemaVersion: 1, state: i })),
    );
    expect(posted.mock.calls.filter(([message]) => 'snapshots' in message)).toHaveLength(1);
    expect(await store.readSnapshot('s-49')).toEqual({ revision: 1n, schemaVersion: 1, state: 49 });
    await store.close();
  });

  it('never returns system events from the global log', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    await store.append('s-1', [event('$metadata'), event('A')], { expected: 'no_stream' });
    expect((await store.readAll()).map((e) => e.type)).toEqual(['A']);
    await store.close();
  });

  it('commits appends grouped together independently: one failing half-way leaves no trace, the others land', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite') });
    const taken = event('A');
    await store.append('s-0', [taken], { expected: 'no_stream' });
    const outcomes = await Promise.allSettled([
      store.append('s-1', [event('B')], { expected: 'no_stream' }),
      store.append('s-2', [event('C'), taken], { expected: 'no_stream' }), // its second id is already stored
      store.append('s-3', [event('D')], { expected: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.readAll()).map((e) => `${e.stream}:${e.type}`)).toEqual(['s-0:A', 's-1:B', 's-3:D']);
    await store.close();
  });

  it('hands a commit to a subscription waiting at the head without reading it back, as a read would return it', async () => {
    const store = new SqliteEventStore({ file: join(folder, 'events.sqlite'), pollIntervalMs: 60_000 });
    await store.append('s-0', [event('Before')], { expected: 'no_stream' });
    const seen: RecordedEvent[] = [];
    let caughtUp!: () => void;
    let delivered!: () => void;
    const caughtUpOnce = new Promise<void>((resolve) => (caughtUp = resolve));
    const got = new Promise<void>((resolve) => (delivered = resolve));
    const subscription = store.subscribe(
      { filter: { streamPrefixes: ['s-'] } },
      {
        onEvents: (events) => {
          seen.push(...events);
          if (seen.length === 4) delivered();
        },
        onCaughtUp: () => caughtUp(),
      },
    );
    await caughtUpOnce;
    const reads = jest.spyOn(store as unknown as { readAllNow(): unknown }, 'readAllNow');
    await Promise.all([
      store.append('s-1', [event('A'), event('B')], { expected: 'no_stream' }),
      store.append('other-1', [event('Skipped')], { expected: 'no_stream' }),
      store.append('s-2', [event('C')], { expected: 'no_stream' }),
    ]);
    await got;
    expect(reads).not.toHaveBeenCalled();
    expect(seen).toEqual(await store.readAll({ filter: { streamPrefixes: ['s-'] } }));
    await subscription.stop();
    await store.close();
  });

  it('sees events another process appended to the same file, by polling', async () => {
    const file = join(folder, 'events.sqlite');
    const reader = new SqliteEventStore({ file, pollIntervalMs: 10 });
    const writer = new SqliteEventStore({ file });
    const seen: string[] = [];
    const got = new Promise<void>((resolve) => {
      reader.subscribe(
        {},
        {
          onEvents: (events) => {
            seen.push(...events.map((e) => e.type));
            resolve();
          },
        },
      );
    });
    await writer.append('s-1', [event('FromElsewhere')], { expected: 'no_stream' });
    await got;
    expect(seen).toEqual(['FromElsewhere']);
    await writer.close();
    await reader.close();
  });
});
