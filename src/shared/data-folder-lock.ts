import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const DATA_FOLDER_LOCK = Symbol('DataFolderLock');

/** Another process holds the data folder. */
export class DataFolderInUse extends Error {
  constructor(dataDir: string, holder: string | undefined) {
    super(
      `The data folder ${dataDir} is in use by another process${holder ? ` (pid ${holder})` : ''}. ` +
        'Only one process may use a data folder. To run several instances, give each its own DATA_DIR and ' +
        'let them share one EventStoreDB (EVENTSTORE_URL).',
    );
    this.name = 'DataFolderInUse';
  }
}

/**
 * One process per data folder: an exclusive SQLite lock on `lock.sqlite`, held while the service runs. The
 * operating system drops it when the process ends in any way (kill -9 included), so a lock is never stale.
 */
export class DataFolderLock {
  private constructor(private readonly db: Database.Database) {}

  static acquire(dataDir: string): DataFolderLock {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'lock.sqlite'), { timeout: 0 });
    try {
      // In exclusive locking mode the first write's lock is kept until the connection closes.
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (taken INTEGER); COMMIT');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataFolderInUse(dataDir, holder(dataDir));
      throw error;
    }
    writeFileSync(join(dataDir, 'lock.pid'), String(process.pid));
    return new DataFolderLock(db);
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}

function holder(dataDir: string): string | undefined {
  try {
    return readFileSync(join(dataDir, 'lock.pid'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
