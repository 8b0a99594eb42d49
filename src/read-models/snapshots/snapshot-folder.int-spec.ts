import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '../../event-store/sqlite/sqlite-event-store';
import { openReadDatabase } from '../read-database';
import { READ_MODEL_SCHEMA, schemaFingerprint } from './read-model-schema';
import { restoreSnapshot } from './restore-snapshot';
import { pruneSnapshots, snapshotsIn, writeSnapshot } from './snapshot-folder';

const folderOf = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** A read database with a table, a row deleted from it, and a checkpoint at `position`. */
function readDatabase(position: number): Database.Database {
  const db = openReadDatabase(join(folderOf('snapshot-source-'), 'read-models.sqlite'));
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  db.prepare('INSERT INTO notes (text) VALUES (?)').run('kept note');
  db.prepare('INSERT INTO notes (text) VALUES (?)').run('a note about someone forgotten');
  db.prepare('DELETE FROM notes WHERE text LIKE ?').run('%forgotten%');
  db.prepare('INSERT INTO checkpoints (name, position) VALUES (?, ?)').run('notes', position);
  return db;
}

describe('a folder of read-model snapshots', () => {
  it('holds a consistent copy in one file, named after its furthest checkpoint, without the rows deleted before', async () => {
    const db = readDatabase(1234);
    const folder = folderOf('snapshots-');
    const meta = await writeSnapshot(db, folder, 'first-event-id');

    expect(meta).toMatchObject({ store: 'first-event-id', position: '1234', schema: schemaFingerprint(db) });
    expect(meta.file).toMatch(/^read-models-00000000000000001234-[0-9a-f]+\.sqlite$/);
    expect(readdirSync(folder).sort()).toEqual([meta.file.replace('.sqlite', '.json'), meta.file].sort());
    const copy = new Database(join(folder, meta.file), { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'kept note' }]);
    copy.close();
    expect(readFileSync(join(folder, meta.file)).includes('someone forgotten')).toBe(false);
    db.close();
  });

  it('keeps the newest two, and none from before a forgetting', async () => {
    const folder = folderOf('snapshots-');
    for (const position of [10, 30, 20, 40]) {
      const db = readDatabase(position);
      await writeSnapshot(db, folder, 'store');
      db.close();
    }
    pruneSnapshots(folder);
    expect(snapshotsIn(folder).map((found) => found.meta?.position)).toEqual(['40', '30']);
    expect(readdirSync(folder)).toHaveLength(4);
    pruneSnapshots(folder, 35n);
    expect(snapshotsIn(folder).map((found) => found.meta?.position)).toEqual(['40']);
    expect(readdirSync(folder)).toHaveLength(2);
  });
});

describe('restoring a read-model snapshot', () => {
  let store: SqliteEventStore;
  let head: bigint;
  let firstId: string;
  let warnings: jest.SpyInstance;

  beforeEach(async () => {
    store = new SqliteEventStore({ file: join(folderOf('snapshot-log-'), 'events.sqlite') });
    for (let i = 1; i <= 5; i++) {
      await store.append(
        `note-${i}`,
        [{ id: `event-${i}`, type: 'NoteTaken', data: { i }, metadata: { schemaVersion: 1 } }],
        {
          expected: 'no_stream',
        },
      );
    }
    head = await store.head();
    firstId = 'event-1';
    warnings = jest.spyOn(Logger.prototype, 'warn');
  });
  afterEach(async () => {
    warnings.mockRestore();
    await store.close();
  });

  /** A snapshot in a new folder whose description says `position` (and is otherwise this store's, of this schema). */
  async function snapshotAt(position: bigint, changes: Record<string, unknown> = {}) {
    const folder = folderOf('snapshots-');
    const db = readDatabase(Number(position));
    const meta = await writeSnapshot(db, folder, firstId);
    db.close();
    const description = join(folder, meta.file.replace('.sqlite', '.json'));
    writeFileSync(description, JSON.stringify({ ...meta, schema: READ_MODEL_SCHEMA, ...changes }));
    return { folder, meta };
  }

  it('puts the newest that fits in place of a missing read database', async () => {
    const { folder, meta } = await snapshotAt(head);
    const file = join(folderOf('restored-'), 'read-models.sqlite');
    expect(await restoreSnapshot(folder, file, store)).toBe(meta.file);
    const restored = new Database(file, { readonly: true });
    expect(restored.prepare('SELECT position FROM checkpoints').all()).toEqual([{ position: Number(head) }]);
    restored.close();
  });

  it('leaves a read database that is there alone', async () => {
    const { folder } = await snapshotAt(head);
    const file = join(folderOf('restored-'), 'read-models.sqlite');
    writeFileSync(file, '');
    expect(await restoreSnapshot(folder, file, store)).toBeUndefined();
    expect(readFileSync(file)).toHaveLength(0);
  });

  it.each([
    [
      'further than the log reaches',
      () => ({ position: String(head + 1n) }),
      /further \(position \d+\) than the log reaches \(\d+\)/,
    ],
    [
      'of another store',
      () => ({ store: 'event-of-another-log' }),
      /built from another store \(first event event-of-another-log, not event-1\)/,
    ],
    ['with a position that is no number', () => ({ position: 'soon' }), /its position \(soon\) is not a number/],
  ])('passes over one %s, saying why', async (_case, changes, reason) => {
    const { folder, meta } = await snapshotAt(head, changes());
    const file = join(folderOf('restored-'), 'read-models.sqlite');
    expect(await restoreSnapshot(folder, file, store)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    const said = warnings.mock.calls.map(([message]) => String(message));
    expect(said).toEqual([expect.stringMatching(reason)]);
    expect(said[0]).toContain(meta.file.replace('.sqlite', '.json'));
  });
});
