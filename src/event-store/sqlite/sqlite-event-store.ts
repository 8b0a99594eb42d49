import Database from 'better-sqlite3';
import {
  AppendResult,
  BatchAppendOutcome,
  EventFilter,
  EventStore,
  ExpectedRevision,
  LogPage,
  LogPageRequest,
  LogJsonPage,
  NewEvent,
  PreparedAppends,
  RecordedEvent,
  StreamAppend,
  StreamRead,
  StreamSnapshot,
  Subscription,
  SubscriptionHandler,
} from '../event-store';
import { SQLITE_PAGE_CACHE_SIZE } from '../../shared/sqlite-page-cache';
import {
  EVENT_BYTES_COLUMNS,
  EVENT_COLUMNS,
  RawEventBytesRow,
  RawEventRow,
  eventsQuery,
  toRecorded,
  toJsonBytes,
} from './event-rows';
import { LiveCommits } from './live-commits';
import { LogReads } from './log-reads';
import { SqliteReadAhead } from './read-ahead';
import { SqliteSynchronous, openLog } from './schema';
import { LogSource, SqliteSubscription } from './subscription';
import { PreparedWrites } from './prepared-writes';
import { SqliteWriter } from './writer';

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

interface StoredSnapshot {
  revision: number;
  schema_version: number;
  state: string;
}

/**
 * The embedded event store: one SQLite file in WAL mode. Appends go to the writer thread (writer.ts); reads use
 * this thread's connection; subscriptions (subscription.ts) are handed each commit as it is made (live-commits.ts).
 */
export class SqliteEventStore implements EventStore {
  readonly description: string;
  private readonly live: LiveCommits;
  /** Reads ahead for subscriptions that are behind; none for a database in memory, which no thread shares. */
  private readonly readAheadThread?: SqliteReadAhead;
  /** What the subscriptions read with. */
  private readonly source: LogSource;
  private readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly writer: SqliteWriter;
  private readonly subscriptions = new Set<Subscription>();
  private readonly logReads: LogReads;
  private readonly lastRevisionStmt: Database.Statement<[string], { revision: number | null }>;
  private readonly headStmt: Database.Statement<[], { position: number | null }>;
  private readonly readStreamStmt: Database.Statement<[string, number, number], RawEventRow>;
  private readonly readSnapshotStmt: Database.Statement<[string], StoredSnapshot>;

  constructor(options: SqliteEventStoreOptions) {
    const settings = { synchronous: options.synchronous ?? 'FULL', busyTimeoutMs: options.busyTimeoutMs ?? 5000 };
    this.now = options.now ?? (() => new Date());
    this.db = openLog(options.file, settings);
    this.lastRevisionStmt = this.db.prepare('SELECT max(revision) AS revision FROM events WHERE stream = ?');
    this.headStmt = this.db.prepare('SELECT max(position) AS position FROM events');
    this.readStreamStmt = this.db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .raw(true);
    this.readSnapshotStmt = this.db.prepare('SELECT revision, schema_version, state FROM snapshots WHERE stream = ?');
    this.logReads = new LogReads(this.db, () => this.head());
    if (!this.db.memory) this.readAheadThread = new SqliteReadAhead(options.file, SQLITE_PAGE_CACHE_SIZE);
    this.live = new LiveCommits(options.pollIntervalMs ?? 1000);
    this.writer = new SqliteWriter(options.file, settings, this.now, (report) => this.live.committed(report));
    this.source = {
      live: this.live,
      readAhead: this.readAheadThread,
      readRows: (query) => this.logReads.rows(query),
      head: () => BigInt(this.headStmt.get()?.position ?? 0),
      isOpen: () => this.db.open,
    };
    // Bound, so that a wrapper made with Object.create(store) (as tests do) queues on this store, not on itself.
    this.append = this.append.bind(this);
    this.appendMultiple = this.appendMultiple.bind(this);
    this.appendBatch = this.appendBatch.bind(this);
    this.appendPrepared = this.appendPrepared.bind(this);
    this.writeSnapshot = this.writeSnapshot.bind(this);
    this.description = `sqlite (${options.file}, synchronous=${settings.synchronous})`;
  }

  append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return this.writer.append([{ stream, events, expected: options.expected }]).then((results) => results[0]);
  }

  /** Appends to several streams in one commit: all of them or none (a conflict on any one fails them all). */
  appendMultiple(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((part) => part.events.length === 0))
      return Promise.reject(new Error('appendMultiple needs at least one event per stream'));
    return this.writer.append(appends);
  }

  /** Independent appends in one commit, each all or nothing, each with its own outcome. */
  appendBatch(appends: Iterable<StreamAppend[]>, expected?: number): Promise<BatchAppendOutcome[]> {
    return this.writer.appendBatch(appends, expected);
  }

  /** The appends encoded now, for `appendPrepared` to commit later (a tick prepared before it is due). */
  prepareBatch(appends: StreamAppend[][], more?: PreparedAppends): PreparedAppends {
    if (more !== undefined && !(more instanceof PreparedWrites)) throw new Error('Not prepared by this store');
    const writes = more ?? new PreparedWrites();
    writes.add(appends);
    return writes;
  }

  appendPrepared(prepared: Array<{ appends: PreparedAppends; keep: boolean[] }>): Promise<BatchAppendOutcome[]> {
    return this.writer.appendPrepared(prepared);
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
    return this.writer.writeSnapshot(stream, snapshot, this.now().getTime());
  }

  async readStream(stream: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<StreamRead> {
    const from = Number(options.fromRevision ?? 0n);
    const rows = this.readStreamStmt.all(stream, from, options.maxCount ?? Number.MAX_SAFE_INTEGER);
    const exists = rows.length > 0 || (from > 0 && this.lastRevisionStmt.get(stream)?.revision != null);
    return { exists, events: rows.map(toRecorded) };
  }

  async readAll(options: { after?: bigint; maxCount?: number; filter?: EventFilter } = {}): Promise<RecordedEvent[]> {
    return this.logReads.rows(eventsQuery(options.after, options.maxCount ?? 1000, options.filter)).map(toRecorded);
  }

  async head(): Promise<bigint> {
    return BigInt(this.headStmt.get()?.position ?? 0);
  }

  async readLogPage(request: LogPageRequest): Promise<LogPage> {
    const { rows, cursor, end } = await this.logReads.page(request, EVENT_COLUMNS);
    return { events: (rows as RawEventRow[]).map(toRecorded), cursor, end };
  }

  async readLogJson(request: LogPageRequest): Promise<LogJsonPage> {
    const { rows, cursor, end } = await this.logReads.page(request, EVENT_BYTES_COLUMNS);
    return { events: (rows as unknown as RawEventBytesRow[]).map(toJsonBytes), cursor, end };
  }

  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription {
    const settings = { after: options.after, filter: options.filter, batchSize: options.batchSize ?? 1000 };
    const subscription: Subscription = new SqliteSubscription(this.source, settings, handler, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Makes the subscriptions look for events written by other processes now, rather than at their next poll. */
  pollNow(): void {
    this.live.wakeAll();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.readAheadThread?.close();
    await this.writer.close();
    this.db.close();
  }
}
