import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  AppendResult,
  ConcurrencyError,
  EventFilter,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  matchesFilter,
  NewEvent,
  RecordedEvent,
  StoreUnavailableError,
  StreamAppend,
  StreamRead,
  StreamSnapshot,
  Subscription,
  SubscriptionHandler,
} from './event-store';
import { SqliteReadAhead } from './sqlite-read-ahead';
import { SqliteSnapshotWrites } from './sqlite-snapshot-writes';
import {
  WriterFailure,
  WriterOutcome,
  WriterReply,
  WriterRequest,
  decodeOutcomes,
  encodeBatch,
} from './sqlite-writer-protocol';

export type SqliteSynchronous = 'FULL' | 'NORMAL';

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:'. */
  file: string;
  /** FULL (default): a resolved append survives power loss. NORMAL: it survives a process crash only. */
  synchronous?: SqliteSynchronous;
  /** How often subscriptions look for events written by other processes on the same file. */
  pollIntervalMs?: number;
  /** How long an append waits for a write lock held elsewhere before it fails as unavailable. Default 5000. */
  busyTimeoutMs?: number;
  now?: () => Date;
}

/**
 * SQLite's page cache per connection (this thread's, the writer's, the reader's, the read models'), in KiB
 * (negative: a size, not a page count). better-sqlite3 builds SQLite with 16 MB, which a busy process fills and
 * keeps; the OS caches the file as well, so a smaller one costs little.
 */
export const PAGE_CACHE_SIZE = -4096;

/** The columns of an event read as an array (better-sqlite3's raw mode, which skips building an object per row). */
const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';
type RawEventRow = [number, string, string, number, string, string, string, number];

/** A read of the log: the SELECT of EVENT_COLUMNS, and its parameters. */
interface EventsQuery {
  sql: string;
  params: Array<string | number>;
}

/** The next batch of a subscription, asked of the reader thread: the events after `after`, up to `upTo`. */
interface ReadAhead {
  after: bigint;
  upTo?: bigint;
  rows: Promise<RawEventRow[]>;
}

/** One append waiting for the writer: one stream, or several all or nothing. */
interface PendingAppend {
  /** The parts as the writer takes them: events serialised once, when the append is made. */
  message: WriterRequest;
  /** Each part's expectation, for the ConcurrencyError of a conflict. */
  expected: ExpectedRevision[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** The writer answers a batch of appends (see sqlite-writer-protocol.ts) or a write of snapshots. */
type BatchReply = WriterReply;
type SnapshotReply = { snapshotsWritten: number; failure?: WriterFailure };

interface StoredSnapshot {
  revision: number;
  schema_version: number;
  state: string;
}

/** A commit as the writer reported it, for live subscriptions: the events it added between the two heads. */
interface Commit {
  sequence: number;
  headBefore: bigint;
  headAfter: bigint;
  events: RecordedEvent[];
}

const WRITER_SCRIPT = join(__dirname, 'sqlite-writer.worker.js');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    UNIQUE (stream, revision)
  );
  CREATE TABLE IF NOT EXISTS snapshots (
    stream         TEXT    PRIMARY KEY,
    revision       INTEGER NOT NULL,
    schema_version INTEGER NOT NULL,
    state          TEXT    NOT NULL,
    taken_at       INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

/**
 * The embedded event store: one SQLite file in WAL mode. Appends go to a writer on a worker thread, which commits
 * them and syncs the disk while this thread goes on; those that arrive while a commit is in flight are grouped into
 * the next one (each in its own savepoint), so concurrent requests share a sync. Reads use this thread's connection.
 */
export class SqliteEventStore implements EventStore {
  readonly description: string;
  private readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly pollIntervalMs: number;
  private pending: PendingAppend[] = [];
  private inFlight: PendingAppend[] | undefined;
  /** The requests of the commit in flight, and its time. */
  private inFlightMessage: { batch: WriterRequest[]; recordedAt: number } = { batch: [], recordedAt: 0 };
  private readonly writer: Worker;
  private readonly writerExited: Promise<void>;
  private writerGone = false;
  private commits = 0;
  private readonly snapshotWrites: SqliteSnapshotWrites;
  /** Reads ahead for subscriptions that are behind; none for a database in memory, which no thread shares. */
  private readonly readAheadThread?: SqliteReadAhead;
  private readonly waiters = new Set<(commit?: Commit) => void>();
  private readonly subscriptions = new Set<{ stop(): Promise<void> }>();
  private readonly readAllStatements = new Map<string, Database.Statement<unknown[], RawEventRow>>();
  private readonly lastRevisionStmt: Database.Statement<[string], { revision: number | null }>;
  private readonly headStmt: Database.Statement<[], { position: number | null }>;
  private readonly readStreamStmt: Database.Statement<[string, number, number], RawEventRow>;
  private readonly readSnapshotStmt: Database.Statement<[string], StoredSnapshot>;

  constructor(options: SqliteEventStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.db = new Database(options.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
    this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    this.db.pragma(`cache_size = ${PAGE_CACHE_SIZE}`);
    this.db.exec(SCHEMA);
    this.lastRevisionStmt = this.db.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
    this.headStmt = this.db.prepare('SELECT max(position) AS position FROM events');
    this.readStreamStmt = this.db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .raw(true);
    this.readSnapshotStmt = this.db.prepare('SELECT revision, schema_version, state FROM snapshots WHERE stream = ?');
    if (!this.db.memory) this.readAheadThread = new SqliteReadAhead(options.file, PAGE_CACHE_SIZE);
    this.writer = new Worker(WRITER_SCRIPT, {
      workerData: {
        driver: require.resolve('better-sqlite3'),
        file: options.file,
        synchronous: options.synchronous ?? 'FULL',
        busyTimeoutMs: options.busyTimeoutMs ?? 5000,
        cacheSize: PAGE_CACHE_SIZE,
      },
    });
    // Bound, so that a wrapper made with Object.create(store) (as tests do) queues on this store, not on itself.
    this.append = this.append.bind(this);
    this.appendMultiple = this.appendMultiple.bind(this);
    this.writeSnapshot = this.writeSnapshot.bind(this);
    this.snapshotWrites = new SqliteSnapshotWrites(
      (message) => (this.writerGone ? this.snapshotWrites.fail(this.closed()) : this.writer.postMessage(message)),
      () => this.holdWhileBusy(),
    );
    this.writer.on('message', (reply: BatchReply | SnapshotReply) =>
      'snapshotsWritten' in reply ? this.snapshotWritten(reply) : this.settle(reply),
    );
    this.writer.on('error', (error) => this.failWriter(error));
    // The writer keeps the process alive only while a commit is in flight. After the listeners: adding the
    // first 'message' listener refs the writer's port again.
    this.writer.unref();
    this.writerExited = new Promise((resolve) =>
      this.writer.once('exit', (code) => {
        this.writerGone = true;
        this.failWriter(new Error(`The writer thread exited with code ${code}`));
        resolve();
      }),
    );
    this.description = `sqlite (${options.file}, synchronous=${options.synchronous ?? 'FULL'})`;
  }

  append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.enqueue([{ stream, events, expected: options.expected }]).then((results) => results[0]);
  }

  /** Appends to several streams in one commit: all of them or none (a conflict on any one fails them all). */
  appendMultiple(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((part) => part.events.length === 0))
      return Promise.reject(new Error('appendMultiple needs at least one event per stream'));
    return this.enqueue(appends);
  }

  private enqueue(parts: StreamAppend[]): Promise<AppendResult[]> {
    if (this.writerGone) return Promise.reject(new StoreUnavailableError('The event store is closed'));
    return new Promise((resolve, reject) => {
      // Serialised here, so that data JSON cannot express fails its own append only.
      const message = toWriterRequest(parts);
      this.pending.push({ message, expected: parts.map((part) => part.expected), resolve, reject });
      if (!this.inFlight) this.flush();
    });
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
    this.writer.postMessage(encodeBatch(message.batch, message.recordedAt));
  }

  private settle(reply: BatchReply): void {
    const batch = this.inFlight ?? [];
    this.inFlight = undefined;
    this.holdWhileBusy();
    if ('batchFailure' in reply) {
      const failure = new StoreUnavailableError('The event store could not commit', {
        cause: writerError(reply.batchFailure),
      });
      for (const request of batch) request.reject(failure);
    } else {
      this.commits++;
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
          request.reject(
            new ConcurrencyError(request.message.parts[part].stream, request.expected[part], toActual(actual)),
          );
        } else request.reject(asStoreFailure(writerError(outcome.failure)));
      });
      if (this.waiters.size) {
        const commit = this.committed({ ...reply, outcomes }, this.inFlightMessage);
        for (const wake of this.waiters) wake(commit);
      }
    }
    this.inFlightMessage = { batch: [], recordedAt: 0 };
    this.flush();
  }

  /** The events a commit added, as a read of the log would return them, without reading them back. */
  private committed(
    reply: { outcomes: WriterOutcome[]; headBefore: number; headAfter: number },
    sent: { batch: WriterRequest[]; recordedAt: number },
  ): Commit {
    const events: RecordedEvent[] = [];
    const recordedAt = new Date(sent.recordedAt);
    reply.outcomes.forEach((outcome, i) => {
      if (!('ok' in outcome)) return;
      const request = sent.batch[i];
      outcome.ok.forEach((result, part) => {
        if (result.position <= reply.headBefore) return; // a repeat of an earlier append
        const { stream, events: partEvents } = request.parts[part];
        const count = partEvents.length;
        partEvents.forEach((event, k) => {
          if (event.type.startsWith('$')) return;
          events.push({
            id: event.id,
            type: event.type,
            stream,
            revision: BigInt(result.nextRevision - count + 1 + k),
            position: BigInt(result.position - count + 1 + k),
            data: JSON.parse(event.data),
            metadata: JSON.parse(event.metadata),
            recordedAt,
          });
        });
      });
    });
    events.sort((a, b) => (a.position < b.position ? -1 : 1));
    return { sequence: this.commits, headBefore: BigInt(reply.headBefore), headAfter: BigInt(reply.headAfter), events };
  }

  /** The writer thread died: what it had and everything after fails as unavailable. */
  private failWriter(error: unknown): void {
    this.writerGone = true;
    const failure = new StoreUnavailableError('The event store writer stopped', { cause: error });
    for (const request of [...(this.inFlight ?? []), ...this.pending]) request.reject(failure);
    this.snapshotWrites.fail(failure);
    this.inFlight = undefined;
    this.pending = [];
  }

  /** The writer keeps the process alive only while it has a commit or a snapshot in hand. */
  private holdWhileBusy(): void {
    if (this.inFlight || this.snapshotWrites.busy) this.writer.ref();
    else this.writer.unref();
  }

  async readSnapshot(stream: string): Promise<StreamSnapshot | undefined> {
    const row = this.readSnapshotStmt.get(stream);
    if (!row) return undefined;
    return { revision: BigInt(row.revision), schemaVersion: row.schema_version, state: JSON.parse(row.state) };
  }

  /**
   * Goes through the writer, between two commits of events, with the other snapshots of this turn of the event
   * loop, in a transaction that is not synced (it costs no disk flush; the next commit of events syncs it with
   * them). It is written after the events it covers, so a crash can lose it but never keep it without them.
   */
  writeSnapshot(stream: string, snapshot: StreamSnapshot): Promise<void> {
    if (this.writerGone) return Promise.reject(this.closed());
    return this.snapshotWrites.write(stream, snapshot, this.now().getTime());
  }

  private snapshotWritten({ snapshotsWritten, failure }: SnapshotReply): void {
    this.snapshotWrites.settle({ snapshotsWritten, failure: failure && asStoreFailure(writerError(failure)) });
  }

  private closed(): StoreUnavailableError {
    return new StoreUnavailableError('The event store is closed');
  }

  async readStream(stream: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<StreamRead> {
    const from = Number(options.fromRevision ?? 0n);
    const rows = this.readStreamStmt.all(stream, from, options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const exists = rows.length > 0 || (from > 0 && this.lastRevisionStmt.get(stream)?.revision != null);
    return { exists, events: rows.map(toRecorded) };
  }

  async readAll(options: { after?: bigint; maxCount?: number; filter?: EventFilter } = {}): Promise<RecordedEvent[]> {
    return this.readAllNow(options.after, options.maxCount ?? 1000, options.filter);
  }

  /** Events after `after` (and no further than `upTo`, when given) that pass the filter, in order. */
  private readAllNow(
    after: bigint | undefined,
    maxCount: number,
    filter?: EventFilter,
    upTo?: bigint,
  ): RecordedEvent[] {
    return this.readRows(eventsQuery(after, maxCount, filter, upTo)).map(toRecorded);
  }

  private readRows({ sql, params }: EventsQuery): RawEventRow[] {
    let statement = this.readAllStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], RawEventRow>(sql).raw(true);
      this.readAllStatements.set(sql, statement);
    }
    return statement.all(...params);
  }

  /**
   * A batch of a subscription that is behind. When the batch before was full, this one was asked of the reader
   * thread then (`ahead`), and is read there while that one was handled; a full batch asks for the next.
   */
  private readBatch(
    after: bigint,
    batchSize: number,
    filter: EventFilter | undefined,
    ahead: ReadAhead | undefined,
  ): { rows: RawEventRow[] | Promise<RawEventRow[]>; upTo?: bigint } {
    if (ahead?.after === after) return ahead;
    // A filtered read that finds fewer events than asked has seen the whole log up to its head (see subscribe).
    const upTo = filter ? BigInt(this.headStmt.get()?.position ?? 0) : undefined;
    return { rows: this.readRows(eventsQuery(after, batchSize, filter, upTo)), upTo };
  }

  /** Asks the reader thread for the batch after `rows`, when they filled theirs (more is likely to follow). */
  private readAhead(
    rows: RawEventRow[],
    batchSize: number,
    filter: EventFilter | undefined,
    upTo: bigint | undefined,
  ): ReadAhead | undefined {
    if (!this.readAheadThread || rows.length < batchSize) return undefined;
    const after = BigInt(rows[rows.length - 1][0]);
    const query = eventsQuery(after, batchSize, filter, upTo);
    const rowsAhead = this.readAheadThread.read(query.sql, query.params) as Promise<RawEventRow[]>;
    // Should the reader thread fail, the batch is read here instead (unless the store closed meanwhile).
    return { after, upTo, rows: rowsAhead.catch(() => (this.db.open ? this.readRows(query) : [])) };
  }

  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription {
    let stopped = false;
    let wake: ((commit?: Commit) => void) | undefined;
    const batchSize = options.batchSize ?? 1000;
    const loop = async () => {
      let after = options.after ?? 0n;
      let handedOver: Commit | undefined;
      let ahead: ReadAhead | undefined;
      while (!stopped) {
        // A commit made while this subscription waited at the log's head is handed over as it is, not read back.
        if (handedOver && after >= handedOver.headBefore) {
          const commit = handedOver;
          handedOver = undefined;
          const events = commit.events.filter(
            (event) => event.position > after && matchesFilter(event, options.filter),
          );
          for (let i = 0; i < events.length && !stopped; i += batchSize)
            await handler.onEvents(events.slice(i, i + batchSize));
          if (stopped) break;
          after = commit.headAfter;
          if (commit.sequence === this.commits) {
            handler.onCaughtUp?.();
            handedOver = await this.nextCommit((done) => (wake = done));
            continue;
          }
        }
        handedOver = undefined;
        const seenCommits = this.commits;
        const batch = this.readBatch(after, batchSize, options.filter, ahead);
        const rows = await batch.rows;
        if (stopped) break;
        ahead = this.readAhead(rows, batchSize, options.filter, batch.upTo);
        const events = rows.map(toRecorded);
        // A filtered read that finds fewer events than asked has seen the whole log up to its head: the next read
        // starts there, rather than re-scanning what the filter left out since the last event it matched.
        if (events.length < batchSize && batch.upTo !== undefined && batch.upTo > after) after = batch.upTo;
        if (events.length > 0) {
          await handler.onEvents(events);
          if (events[events.length - 1].position > after) after = events[events.length - 1].position;
          // Let appends waiting to commit go first: a long read must not hold back writes.
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        handler.onCaughtUp?.();
        // Stopped from onCaughtUp, or appends came meanwhile: do not wait for the next one.
        if (stopped || seenCommits !== this.commits) continue;
        handedOver = await this.nextCommit((done) => (wake = done));
      }
    };
    const running = loop().catch((error) => {
      if (!stopped) handler.onError?.(error);
    });
    const subscription = {
      stop: async () => {
        stopped = true;
        wake?.();
        await running;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Waits for the next commit of this store (which it gives), a stop, or the poll interval (for other processes). */
  private async nextCommit(register: (wake: (commit?: Commit) => void) => void): Promise<Commit | undefined> {
    let wake: ((commit?: Commit) => void) | undefined;
    const commit = await new Promise<Commit | undefined>((resolve) => {
      const timer = setTimeout(() => done(), this.pollIntervalMs);
      function done(commit?: Commit) {
        clearTimeout(timer);
        resolve(commit);
      }
      wake = done;
      register(done);
      this.waiters.add(done);
    });
    if (wake) this.waiters.delete(wake);
    return commit;
  }

  /** Makes the subscriptions look for events written by other processes now, rather than at their next poll. */
  pollNow(): void {
    for (const wake of this.waiters) wake();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.readAheadThread?.close();
    while (this.inFlight || this.pending.length || this.snapshotWrites.busy)
      await new Promise((resolve) => setImmediate(resolve));
    // Held until it has exited, or a caller awaiting close() with nothing else to do would see the process end.
    this.writer.ref();
    this.writer.postMessage({ close: true });
    await this.writerExited;
    this.db.close();
  }
}

function toActual(last: number | null): bigint | 'no_stream' {
  return last === null ? 'no_stream' : BigInt(last);
}

function toWriterRequest(parts: StreamAppend[]): WriterRequest {
  // Events of one command usually share their metadata object: it is serialised once.
  let metadata: EventMetadata | undefined;
  let metadataJson = '';
  return {
    parts: parts.map(({ stream, events, expected }) => ({
      stream,
      expected: typeof expected === 'bigint' ? expected.toString() : expected,
      events: events.map((event) => {
        if (event.metadata !== metadata) {
          metadata = event.metadata;
          metadataJson = JSON.stringify(metadata);
        }
        return { id: event.id, type: event.type, data: JSON.stringify(event.data), metadata: metadataJson };
      }),
    })),
  };
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

/** Events after `after` (and no further than `upTo`, when given) that pass the filter, in order. */
function eventsQuery(after: bigint | undefined, maxCount: number, filter?: EventFilter, upTo?: bigint): EventsQuery {
  const prefixes = filter?.streamPrefixes ?? [];
  const types = filter?.eventTypes ?? [];
  const clauses = ['position > ?', "substr(type, 1, 1) <> '$'"];
  if (upTo !== undefined) clauses.push('position <= ?');
  if (prefixes.length) clauses.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
  if (types.length) clauses.push(`type IN (${types.map(() => '?').join(', ')})`);
  const bounds = upTo === undefined ? [Number(after ?? 0n)] : [Number(after ?? 0n), Number(upTo)];
  return {
    sql: `SELECT ${EVENT_COLUMNS} FROM events WHERE ${clauses.join(' AND ')} ORDER BY position LIMIT ?`,
    params: [...bounds, ...prefixes.flatMap((prefix) => [prefix.length, prefix]), ...types, maxCount],
  };
}

function toRecorded([position, id, stream, revision, type, data, metadata, recordedAt]: RawEventRow): RecordedEvent {
  return {
    id,
    type,
    stream,
    revision: BigInt(revision),
    position: BigInt(position),
    data: JSON.parse(data),
    metadata: JSON.parse(metadata),
    recordedAt: new Date(recordedAt),
  };
}
