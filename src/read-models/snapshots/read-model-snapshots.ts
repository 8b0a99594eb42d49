import { Inject, Injectable, Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { AppliedEvents } from '../applied-events';
import { ProjectionRunner } from '../projection-runner';
import { READ_DATABASE } from '../read-database';
import { READ_MODEL_SCHEMA, schemaFingerprint } from './read-model-schema';
import { pruneSnapshots, writeSnapshot } from './snapshot-folder';
import { storeIdentity } from './restore-snapshot';

/**
 * Writes snapshots of the read database to `READ_MODEL_SNAPSHOT_DIR`: once the read models have applied
 * `READ_MODEL_SNAPSHOT_EVERY` events since the last one (counted once they have caught up with the log), and at
 * shutdown. A new instance restores the newest (restore-snapshot.ts) instead of reading the whole log. When a subject
 * is forgotten, a snapshot is written at once and every older one removed, so that no copy keeps what the read
 * models dropped. A snapshot that fails is logged and tried again at the next batch; the read models carry on.
 */
@Injectable()
export class ReadModelSnapshots {
  private readonly logger = new Logger(ReadModelSnapshots.name);
  private readonly folder?: string;
  private readonly every: number;
  /** Events applied since the last snapshot began. */
  private sinceLast = 0;
  /** The position of a subject's forgetting that no snapshot has been written after yet. */
  private forgottenAt?: bigint;
  private writing?: Promise<void>;
  private stopped = false;
  /** The store's identity, read once: it never changes. */
  private storeId?: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(READ_DATABASE) private readonly db: Database.Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly runner: ProjectionRunner,
    applied: AppliedEvents,
  ) {
    this.folder = config.readModelSnapshots.dir;
    this.every = config.readModelSnapshots.every;
    if (!this.folder) return;
    applied.onApplied((events) => {
      this.sinceLast += events.length;
      if (events.some((event) => event.type === 'SubjectForgotten')) this.forgottenAt = events.at(-1)!.position;
      if (this.due()) void this.write();
    });
  }

  /** The snapshot being written, if one is: resolves once it is done (it never rejects). */
  get inProgress(): Promise<void> | undefined {
    return this.writing;
  }

  /** At shutdown, once the read models and the workers have stopped: one last snapshot, if anything is new. */
  async writeAtShutdown(): Promise<void> {
    this.stopped = true;
    await this.writing;
    if (this.folder && this.runner.caughtUp && this.sinceLast > 0) await this.write(true);
  }

  private due(): boolean {
    if (this.stopped || !this.runner.caughtUp) return false;
    if (this.forgottenAt === undefined && !(this.every > 0 && this.sinceLast >= this.every)) return false;
    // The copy reads through a connection of its own, which only the write-ahead log lets go beside the writes
    // (the catch-up at start writes without it, see startCatchUp).
    return this.db.pragma('journal_mode', { simple: true }) === 'wal';
  }

  private write(atShutdown = false): Promise<void> {
    if (this.writing || (this.stopped && !atShutdown) || !this.db.open) return this.writing ?? Promise.resolve();
    const events = this.sinceLast;
    const forgotten = this.forgottenAt;
    this.sinceLast = 0;
    this.forgottenAt = undefined;
    let written = false;
    this.writing = this.snapshot(forgotten)
      .then((file) => {
        written = true;
        this.logger.log(`Read-model snapshot ${file} written (${events} events since the last one)`);
      })
      .catch((error: unknown) => {
        this.sinceLast += events;
        this.forgottenAt ??= forgotten;
        this.logger.warn(`Read-model snapshot not written: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.writing = undefined;
        // What came while it was being written may have made another one due (a subject forgotten meanwhile).
        if (written && this.due()) void this.write();
      });
    return this.writing;
  }

  private async snapshot(forgotten: bigint | undefined): Promise<string> {
    const folder = this.folder!;
    const store = (this.storeId ??= await storeIdentity(this.store));
    if (!store) throw new Error('the log is empty');
    const schema = schemaFingerprint(this.db);
    if (schema !== READ_MODEL_SCHEMA) {
      // Another shape than this version's own (an older file a migration left otherwise): no one could restore it.
      throw new Error(`the read database's schema (${schema}) is not this version's (${READ_MODEL_SCHEMA})`);
    }
    const meta = await writeSnapshot(this.db, folder, store);
    pruneSnapshots(folder, forgotten);
    return meta.file;
  }
}
