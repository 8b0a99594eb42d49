import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SQLITE_PAGE_CACHE_SIZE } from '../../shared/sqlite-page-cache';
import {
  AppendResult,
  BatchAppendOutcome,
  PreparedAppends,
  StoreUnavailableError,
  StreamAppend,
  StreamSnapshot,
} from '../event-store';
import { Answer, PendingAppend, answerAppends, asStoreFailure, writerError } from './append-answers';
import { CommitReport } from './live-commits';
import { ConnectionSettings } from './schema';
import { SqliteSnapshotWrites } from './snapshot-writes';
import { BatchEncoder } from './batch-encoder';
import { PreparedWrites } from './prepared-writes';
import { WriterFailure, WriterReply } from './writer-protocol';

const WRITER_SCRIPT = join(__dirname, 'writer.worker.js');
/** The most room a batch reserves ahead in its encoder. */
const RESERVE_AT_MOST = 64 * 1024 * 1024;

type SnapshotReply = { snapshotsWritten: number; failure?: WriterFailure };

/**
 * The writer thread (writer.worker.js) and its queue. It commits the appends and syncs the disk while this thread
 * goes on; those that arrive while a commit is in flight are grouped into the next one (each in its own savepoint),
 * so concurrent requests share a sync. Snapshots go through it too, between two commits of events.
 */
export class SqliteWriter {
  private pending: PendingAppend[] = [];
  /** The pending appends, encoded as they came. */
  private encoder = new BatchEncoder();
  private inFlight: PendingAppend[] | undefined;
  /** The appends of the commit in flight, and its time. */
  private inFlightMessage: CommitReport['sent'] | undefined;
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private gone = false;
  private readonly snapshotWrites: SqliteSnapshotWrites;
  /** A batch's appends are being read: they may not append themselves. */
  private taking = false;

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
    if (this.taking) return Promise.reject(whileTaking());
    return new Promise((resolve, reject) => {
      const answer = {
        settle: (_: number, outcome: BatchAppendOutcome) =>
          'ok' in outcome ? resolve(outcome.ok) : reject(outcome.error),
      };
      // Encoded here, so that data JSON cannot express fails its own append only.
      if (this.enqueue(parts, answer, 0) && !this.inFlight) this.flush();
    });
  }

  /**
   * Independent appends, all in the same commit (the next one, even when the writer is idle, unlike appends made
   * one by one, of which the first goes alone), each with its own outcome. Each is encoded as it is taken from
   * `appends`, which may make them as they are asked for; should that throw, none of them is kept.
   */
  appendBatch(appends: Iterable<StreamAppend[]>, expected?: number): Promise<BatchAppendOutcome[]> {
    if (this.gone) return Promise.reject(closed());
    if (this.taking) return Promise.reject(whileTaking());
    const outcomes: BatchAppendOutcome[] = [];
    let left = 0;
    let taken = false;
    let resolve!: (outcomes: BatchAppendOutcome[]) => void;
    const answered = new Promise<BatchAppendOutcome[]>((settle) => (resolve = settle));
    const answer = {
      settle(i: number, outcome: BatchAppendOutcome) {
        outcomes[i] = outcome;
        if (--left === 0 && taken) resolve(outcomes);
      },
    };
    const mark = this.encoder.mark();
    const pendingBefore = this.pending.length;
    const size = Array.isArray(appends) ? appends.length : (expected ?? 0);
    let queued = false;
    let i = 0;
    this.taking = true;
    try {
      for (const parts of appends) {
        left++;
        const before = this.encoder.size;
        if (parts.length === 0 || parts.some((part) => part.events.length === 0))
          answer.settle(i, { error: new Error('an append needs at least one event per stream') });
        else if (this.enqueue(parts, answer, i)) {
          // The first append's size tells about how much room the rest take: the buffer grows once, not by doubling.
          if (!queued && size > i + 1)
            this.encoder.reserve(Math.min(RESERVE_AT_MOST, (this.encoder.size - before) * 1.25 * (size - i - 1)));
          queued = true;
        }
        i++;
      }
    } catch (error) {
      // Reading the appends failed: none of them goes.
      this.encoder.truncate(mark);
      this.pending.length = pendingBefore;
      return Promise.reject(error as Error);
    } finally {
      this.taking = false;
    }
    taken = true;
    if (left === 0) resolve(outcomes);
    if (queued && !this.inFlight) this.flush();
    return answered;
  }

  /**
   * Prepared appends (PreparedWrites), those kept, in the next commit, as appendBatch would put them: their bytes
   * are copied into it (or, for one batch alone and kept whole, taken as they are), nothing is encoded now.
   * Outcomes for the kept appends, in order.
   */
  appendPrepared(prepared: Array<{ appends: PreparedAppends; keep: boolean[] }>): Promise<BatchAppendOutcome[]> {
    if (this.gone) return Promise.reject(closed());
    if (this.taking) return Promise.reject(whileTaking());
    if (prepared.some(({ appends }) => !(appends instanceof PreparedWrites)))
      return Promise.reject(new Error('Not prepared by this store'));
    const batches = prepared as Array<{ appends: PreparedWrites; keep: boolean[] }>;
    try {
      for (const { appends, keep } of batches) appends.commit(keep);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const outcomes: BatchAppendOutcome[] = [];
    let left = 0;
    let resolve!: (outcomes: BatchAppendOutcome[]) => void;
    const answered = new Promise<BatchAppendOutcome[]>((settle) => (resolve = settle));
    const answer = {
      settle(i: number, outcome: BatchAppendOutcome) {
        outcomes[i] = outcome;
        if (--left === 0) resolve(outcomes);
      },
    };
    let next = 0;
    let queued = false;
    const queue = (writes: PreparedWrites, places: Int32Array) => (i: number) => {
      queued = true;
      this.pending.push({ parts: writes.parts[i], answer, index: places[i] });
    };
    for (const { appends: writes, keep } of batches) {
      // Each kept append's place among the outcomes.
      const places = new Int32Array(writes.count);
      for (let i = 0; i < writes.count; i++) {
        if (!keep[i]) continue;
        places[i] = next++;
        const failure = writes.failures.get(i);
        if (failure === undefined) left++;
        else outcomes[places[i]] = { error: failure };
      }
      // Alone in the next commit and taken whole (a tick whose workflows are all as prepared): its encoding goes as it is.
      const push = queue(writes, places);
      if (batches.length === 1 && this.pending.length === 0 && writes.whole(keep)) {
        this.encoder = writes.takeEncoder();
        for (let i = 0; i < writes.count; i++) push(i);
        continue;
      }
      this.encoder.reserve(writes.size);
      writes.copyKept(this.encoder, keep, push);
    }
    if (left === 0) resolve(outcomes);
    if (queued && !this.inFlight) this.flush();
    return answered;
  }

  /** Encodes the append for the next commit; false (and `answer` told) if it cannot be. */
  private enqueue(parts: StreamAppend[], answer: Answer, index: number): boolean {
    try {
      this.encoder.add(parts);
    } catch (error) {
      answer.settle(index, { error });
      return false;
    }
    // One array, not two: a tick keeps 10,000 of these until its commit is answered.
    const streams: PendingAppend['parts'] = [];
    for (const { stream, expected } of parts) streams.push(stream, expected);
    this.pending.push({ parts: streams, answer, index });
    return true;
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
    const encoder = this.encoder;
    this.pending = [];
    this.encoder = new BatchEncoder();
    // Every event of one commit carries the same time: when it was sent.
    const message = encoder.finish(this.now().getTime());
    this.inFlight = batch;
    this.inFlightMessage = { batch: encoder, recordedAt: message.recordedAt };
    this.holdWhileBusy();
    this.worker.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
  }

  private settle(reply: WriterReply): void {
    const batch = this.inFlight ?? [];
    const sent = this.inFlightMessage;
    this.inFlight = undefined;
    this.inFlightMessage = undefined;
    this.holdWhileBusy();
    if ('batchFailure' in reply) {
      const failure = new StoreUnavailableError('The event store could not commit', {
        cause: writerError(reply.batchFailure),
      });
      for (const request of batch) request.answer.settle(request.index, { error: failure });
    } else {
      sent?.batch.handedBack(reply.bytes);
      const outcomes = answerAppends(batch, reply);
      const { headBefore, headAfter } = reply;
      if (sent) this.committed({ outcomes, headBefore, headAfter, sent });
    }
    this.flush();
  }

  private snapshotWritten({ snapshotsWritten, failure }: SnapshotReply): void {
    this.snapshotWrites.settle({ snapshotsWritten, failure: failure && asStoreFailure(writerError(failure)) });
  }

  /** The writer thread died: what it had and everything after fails as unavailable. */
  private fail(error: unknown): void {
    this.gone = true;
    const failure = new StoreUnavailableError('The event store writer stopped', { cause: error });
    for (const request of [...(this.inFlight ?? []), ...this.pending])
      request.answer.settle(request.index, { error: failure });
    this.snapshotWrites.fail(failure);
    this.inFlight = undefined;
    this.inFlightMessage = undefined;
    this.pending = [];
    this.encoder = new BatchEncoder();
  }

  /** The writer keeps the process alive only while it has a commit or a snapshot in hand. */
  private holdWhileBusy(): void {
    if (this.inFlight || this.snapshotWrites.busy) this.worker.ref();
    else this.worker.unref();
  }
}

function whileTaking(): Error {
  return new Error('A batch being read cannot append to the store it goes to');
}

function closed(): StoreUnavailableError {
  return new StoreUnavailableError('The event store is closed');
}
