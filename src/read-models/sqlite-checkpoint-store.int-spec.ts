import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openReadDatabase } from './read-database';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store';

describe('checkpoints in the read database', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps the positions of a data folder from before: both former tables move into checkpoints', () => {
    const file = join(folder, 'read-models.sqlite');
    const before = new Database(file);
    before.exec(`
      CREATE TABLE projection_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      CREATE TABLE process_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      INSERT INTO projection_checkpoints VALUES ('agents', 120), ('workflows', 118);
      INSERT INTO process_checkpoints VALUES ('agent-run-executor', 97), ('workflow-run-manager', 115);
    `);
    before.close();

    const db = openReadDatabase(file);
    const checkpoints = new SqliteCheckpointStore(db);
    expect(
      ['agents', 'workflows', 'agent-run-executor', 'workflow-run-manager'].map((n) => checkpoints.load(n)),
    ).toEqual([120n, 118n, 97n, 115n]);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();
    expect(tables).toEqual(['checkpoints']);
    db.close();

    const again = openReadDatabase(file);
    expect(new SqliteCheckpointStore(again).load('agent-run-executor')).toBe(97n);
    again.close();
  });

  it('reads 0 for a consumer without a checkpoint, and the last position saved otherwise', () => {
    const db = openReadDatabase(join(folder, 'read-models.sqlite'));
    const checkpoints = new SqliteCheckpointStore(db);
    expect(checkpoints.load('new')).toBe(0n);
    checkpoints.save('new', 7n);
    checkpoints.save('new', 9n);
    expect(checkpoints.load('new')).toBe(9n);
    db.close();
  });
});
