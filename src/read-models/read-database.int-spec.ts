import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadDatabase, startCatchUp } from './read-database';

describe('read database', () => {
  let folder: string;
  let file: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'read-database-'));
    file = join(folder, 'read-models.sqlite');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const write = (db: ReturnType<typeof openReadDatabase>) =>
    db.exec('CREATE TABLE IF NOT EXISTS rows (n INTEGER); INSERT INTO rows VALUES (1)');
  const hasRows = (db: ReturnType<typeof openReadDatabase>) =>
    db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'rows'`).pluck().get() === 1;

  it('keeps a page cache of 4 MB, not the 16 MB better-sqlite3 builds SQLite with', () => {
    const db = openReadDatabase(file);
    expect(db.pragma('cache_size', { simple: true })).toBe(-4096);
    db.close();
  });

  it('catches up without syncing, then is back to WAL and synchronous=NORMAL, and keeps what it wrote', () => {
    const db = openReadDatabase(file);
    const end = startCatchUp(db);
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    expect(existsSync(`${file}.catching-up`)).toBe(true);
    write(db);
    end();
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(existsSync(`${file}.catching-up`)).toBe(false);
    db.close();

    const reopened = openReadDatabase(file);
    expect(hasRows(reopened)).toBe(true);
    reopened.close();
  });

  it('deletes read models left by a catch-up that did not end, so they are rebuilt from the log', () => {
    const before = openReadDatabase(file);
    write(before);
    startCatchUp(before);
    write(before);
    before.close(); // as if the machine stopped: the catch-up never ended

    const after = openReadDatabase(file);
    expect(hasRows(after)).toBe(false);
    expect(after.prepare('SELECT count(*) FROM checkpoints').pluck().get()).toBe(0);
    expect(existsSync(`${file}.catching-up`)).toBe(false);
    after.close();
  });
});
