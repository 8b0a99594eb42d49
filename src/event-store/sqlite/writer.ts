import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SQLITE_PAGE_CACHE_SIZE } from '../../shared/sqlite-page-cache';
import {
  AppendResult,
  BatchAppendOutcome,
  ConcurrencyError,
  ExpectedRevision,
  StoreUnavailableError,
  StreamAppend,
  StreamSnapshot,
} from '../event-store';
import { CommitReport } from './live-commits';
import { ConnectionSettings } from './schema';
import { SqliteSnapshotWrites } from './snapshot-writes';
import {
  WriterFailure,
  WriterReply,
  WriterRequest,
  decodeOutcomes,
  encodeBatch,
  toWriterRequest,
} from './writer-protocol';

const WRITER_SCRIPT = join(__dirname, 'writer.worker.js');

/** One append waiting for the writer: one stream, or several all or nothing. */
interface PendingAppend {
  /** The parts as the writer takes them: events serialised once, when the append is made. */
  message: WriterRequest;
  /** Each part's expectation, for the ConcurrencyError of a conflict. */
  expected: ExpectedRevision[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

type SnapshotReply = { snapshotsWritten: number; failure?: WriterFailure };

/**
 * The writer thread (writer.worker.js) and its queue. It commits the appends and syncs the disk while this thread
 * goes on; those that arrive while a commit is in flight are grouped into the next one (each in its own savepoint),
 * so concurrent requests share a sync. Snapshots go through it too, between two commits of events.
 */
export class SqliteWriter {
  private pending: PendingAppend[] = [];
  private inFlight: PendingAppend[] | undefined;
  /** The requests of the commit in flight, and its time. */
  private inFlightMessage: CommitReport['sent'] = { batch: [], recordedAt: 0 };
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private gone = false;
  private readonly snapshotWrites: SqliteSnapshotWrites;

  /** `committed` hears of each commit, once its appends are answered. */
  constructor(
    file: string,
    settings: ConnectionSettings,
    private readonly now: () => Date,
    private readonly committed: (report: CommitReport) => void,
  ) {
    this.worker = new Worker(WRITER_SCRIPT, {
      workerData: {
        driver: require.resolve('better-sqlite3'),
        file,
        synchronous: settings.synchronous,
        busyTimeoutMs: settings.busyTimeoutMs,
        cacheSize: SQLITE_PAGE_CACHE_SIZE,
      },
    });
    this.snapshotWrites = new SqliteSnapshotWrites(
      (message) => (this.gone ? this.snapshotWrites.fail(closed()) : this.worker.postMessage(message)),
      () => this.holdWhileBusy(),
    );
    this.worker.on('message', (reply: WriterReply | SnapshotReply) =>
      'snapshotsWritten' in reply ? this.snapshotWritten(reply) : this.settle(reply),
    );
    this.worker.on('error', (error) => this.fail(error));
    // The writer keeps the process alive only while a commit is in flight. After the listeners: adding the
    // first 'message' listener refs the writer's port again.
    this.worker.unref();
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        this.gone = true;
        this.fail(new Error(`The writer thread exited with code ${code}`));
        resolve();
      }),
    );
  }

  append(parts: StreamAppend[]): Promise<AppendResult[]> {
    if (this.gone) return Promise.reject(closed());
    return new Promise((resolve, reject) => {
      // Serialised here, so that data JSON cannot express fails its own append only.
      const message = toWriterRequest(parts);
      this.pending.push({ message, expected: parts.map((part) => part.expected), resolve, reject });
      if (!this.inFlight) this.flush();
    });
  }

  /**
   * Independent appends, all in the same commit (the next one, even when the writer is idle, unlike appends made
   * one by one, of which the first goes alone), each with its own outcome.
   */
  appendBatch(appends: StreamAppend[][]): Promise<BatchAppendOutcome[]> {
    if (this.gone) return Promise.reject(closed());
    if (appends.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const outcomes = new Array<BatchAppendOutcome>(appends.length);
      let left = appends.length;
      const settle = (i: number, outcome: BatchAppendOutcome) => {
        outcomes[i] = outcome;
        if (--left === 0) resolve(outcomes);
      };
      for (let i = 0; i < appends.length; i++) {
        const parts = appends[i];
        let message: WriterRequest;
        try {
          if (parts.length === 0 || parts.some((part) => part.events.length === 0))
            throw new Error('an append needs at least one event per stream');
          message = toWriterRequest(parts);
        } catch (error) {
          settle(i, { error });
          continue;
        }
        this.pending.push({
          message,
          expected: parts.map((part) => part.expected),
          resolve: (ok) => settle(i, { ok }),
          reject: (error) => settle(i, { error }),
        });
      }
      if (!this.inFlight) this.flush();
    });
  }

  writeSnapshot(stream: string, snapshot: StreamSnapshot, takenAt: number): Promise<void> {
    if (this.gone) return Promise.reject(closed());
    return this.snapshotWrites.write(stream, snapshot, takenAt);
  }

  /** Waits for what is in hand, then stops the thread. */
  async close(): Promise<void> {
    while (this.inFlight || this.pending.length || this.snapshotWrites.busy)
      await new Promise((resolve) => setImmediate(resolve));
    // Held until it has exited, or a caller awaiting close() with nothing else to do would see the process end.
    this.worker.ref();
    this.worker.postMessage({ close: true });
    await this.exited;
  }

  /** Sends what is pending to the writer as one commit; the next waits until this one is settled. */
  private flush(): void {
    if (this.inFlight || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    // Every event of one commit carries the same time: when it was sent.
    const message = { batch: batch.map((request) => request.message), recordedAt: this.now().getTime() };
    this.inFlight = batch;
    this.inFlightMessage = message;
    this.holdWhileBusy();
    this.worker.postMessage(encodeBatch(message.batch, message.recordedAt));
  }

  private settle(reply: WriterReply): void {
    const batch = this.inFlight ?? [];
    this.inFlight = undefined;
    this.holdWhileBusy();
    if ('batchFailure' in reply) {
      const failure = new StoreUnavailableError('The event store could not commit', {
        cause: writerError(reply.batchFailure),
      });
      for (const request of batch) request.reject(failure);
    } else {
      const outcomes = decodeOutcomes(reply, this.inFlightMessage.batch);
      batch.forEach((request, i) => {
        const outcome = outcomes[i];
        if ('ok' in outcome)
          request.resolve(
            outcome.ok.map((result) => ({
              nextRevision: BigInt(result.nextRevision),
              position: BigInt(result.position),
            })),
          );
        else if ('conflict' in outcome) {
          const { part, actual } = outcome.conflict;
          const stream = request.message.parts[part].stream;
          request.reject(
            new ConcurrencyError(stream, request.expected[part], actual === null ? 'no_stream' : BigInt(actual)),
          );
        } else request.reject(asStoreFailure(writerError(outcome.failure)));
      });
      const { headBefore, headAfter } = reply;
      this.committed({ outcomes, headBefore, headAfter, sent: this.inFlightMessage });
    }
    this.inFlightMessage = { batch: [], recordedAt: 0 };
    this.flush();
  }

  private snapshotWritten({ snapshotsWritten, failure }: SnapshotReply): void {
    this.snapshotWrites.settle({ snapshotsWritten, failure: failure && asStoreFailure(writerError(failure)) });
  }

  /** The writer thread died: what it had and everything after fails as unavailable. */
  private fail(error: unknown): void {
    this.gone = true;
    const failure = new StoreUnavailableError('The event store writer stopped', { cause: error });
    for (const request of [...(this.inFlight ?? []), ...this.pending]) request.reject(failure);
    this.snapshotWrites.fail(failure);
    this.inFlight = undefined;
    this.pending = [];
  }

  /** The writer keeps the process alive only while it has a commit or a snapshot in hand. */
  private holdWhileBusy(): void {
    if (this.inFlight || this.snapshotWrites.busy) this.worker.ref();
    else this.worker.unref();
  }
}

function closed(): StoreUnavailableError {
  return new StoreUnavailableError('The event store is closed');
}

/** The writer's report of an error, as an error again, with SQLite's code. */
function writerError({ code, message }: WriterFailure): Error {
  return Object.assign(new Error(message), { code });
}

/** SQLite's own failures (a lock held elsewhere, a full disk) are the store's, not the caller's: 503, not 500. */
function asStoreFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  return new StoreUnavailableError(`The event store could not append: ${(error as Error).message}`, { cause: error });
}
