import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
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
  EventsQuery,
  RawEventBytesRow,
  RawEventRow,
  SIZE_COLUMNS,
  SizeRow,
  eventsQuery,
  toRecorded,
  toJsonBytes,
  windowQuery,
} from './event-rows';
import { LiveCommits } from './live-commits';
import { SqliteReadAhead } from './read-ahead';
import { SqliteSynchronous, openLog } from './schema';
import { LogSource, SqliteSubscription } from './subscription';
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

/** Prepared reads of the log kept, by their SQL (one per filter shape): the least used go first. */
const STATEMENT_CACHE_SIZE = 200;
/** Positions a page read looks at in one synchronous query: a few milliseconds at most, whatever the filter. */
export const PAGE_WINDOW = 20_000;
/** Positions one page read looks at in all, between which it lets the event loop go on. */
export const PAGE_SCAN_LIMIT = 200_000;

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
  private readonly readAllStatements = new LRUCache<string, Database.Statement<unknown[], RawEventRow>>({
    max: STATEMENT_CACHE_SIZE,
  });
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
    if (!this.db.memory) this.readAheadThread = new SqliteReadAhead(options.file, SQLITE_PAGE_CACHE_SIZE);
    this.live = new LiveCommits(options.pollIntervalMs ?? 1000);
    this.writer = new SqliteWriter(options.file, settings, this.now, (report) => this.live.committed(report));
    this.source = {
      live: this.live,
      readAhead: this.readAheadThread,
      readRows: (query) => this.readRows(query),
      head: () => BigInt(this.headStmt.get()?.position ?? 0),
      isOpen: () => this.db.open,
    };
    // Bound, so that a wrapper made with Object.create(store) (as tests do) queues on this store, not on itself.
    this.append = this.append.bind(this);
    this.appendMultiple = this.appendMultiple.bind(this);
    this.appendBatch = this.appendBatch.bind(this);
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
    return this.readRows(eventsQuery(options.after, options.maxCount ?? 1000, options.filter)).map(toRecorded);
  }

  async head(): Promise<bigint> {
    return BigInt(this.headStmt.get()?.position ?? 0);
  }

  async readLogPage(request: LogPageRequest): Promise<LogPage> {
    const { rows, cursor, end } = await this.readLogRows(request, EVENT_COLUMNS);
    return { events: (rows as RawEventRow[]).map(toRecorded), cursor, end };
  }

  async readLogJson(request: LogPageRequest): Promise<LogJsonPage> {
    const { rows, cursor, end } = await this.readLogRows(request, EVENT_BYTES_COLUMNS);
    return { events: (rows as unknown as RawEventBytesRow[]).map(toJsonBytes), cursor, end };
  }

  /**
   * Reads the log in windows of PAGE_WINDOW positions (each one query, through the type or stream index when
   * the filter names them), yielding to the event loop between windows, until the page is full (by count or by
   * bytes), the log ends, or PAGE_SCAN_LIMIT positions were looked at. With `maxBytes`, each window first reads the
   * sizes of the events it would take (SQLite knows them without loading the text), then only the rows that fit.
   */
  private async readLogRows({ direction, after, before, maxCount, maxBytes, filter }: LogPageRequest, columns: string) {
    const head = await this.head();
    const rows: RawEventRow[] = [];
    const forward = direction === 'forward';
    // Forward: the events in (cursor, head]; backward: those in [1, cursor).
    let cursor = forward ? (after ?? 0n) : (before ?? head + 1n);
    if (!forward && cursor > head + 1n) cursor = head + 1n;
    let scanned = 0n;
    let bytesLeft = maxBytes ?? Infinity;
    const atEnd = () => (forward ? cursor >= head : cursor <= 1n);
    // One stream or one type alone: its index holds the events in position order, so a read walks it and stops
    // at maxCount, whatever the stretch of the log; other filters read a window at a time.
    const walk =
      (filter?.streams?.length ?? 0) + (filter?.eventTypes?.length ?? 0) === 1 &&
      !filter?.streamPrefixes?.length &&
      !filter?.excludeStreamPrefixes?.length;
    const window = walk ? head + 1n : BigInt(PAGE_WINDOW);
    while (!atEnd() && rows.length < maxCount && bytesLeft > 0 && scanned < PAGE_SCAN_LIMIT) {
      if (scanned > 0n) await new Promise((resolve) => setImmediate(resolve));
      let wanted = maxCount - rows.length;
      const [lower, upper] = forward
        ? [cursor, cursor + window < head ? cursor + window : head]
        : [cursor - 1n - window > 0n ? cursor - 1n - window : 0n, cursor - 1n];
      let cutBySize = false;
      if (maxBytes !== undefined) {
        const fitting = this.rowsThatFit(windowQuery(lower, upper, !forward, wanted, filter, SIZE_COLUMNS), {
          bytesLeft,
          first: rows.length === 0,
        });
        cutBySize = fitting.count < fitting.found;
        wanted = fitting.count;
        bytesLeft -= fitting.bytes;
      }
      const read = wanted > 0 ? this.readRows(windowQuery(lower, upper, !forward, wanted, filter, columns)) : [];
      for (const row of read) rows.push(row);
      // A window that gave all it was asked for (or was cut by size) ends at its last row, or where it began if it
      // gave none; otherwise it held no more and the read goes on from the window's far end.
      const full = cutBySize || (read.length > 0 && read.length === wanted);
      const last = read.length > 0 ? BigInt(read[read.length - 1][0]) : cursor;
      const next = full ? last : forward ? upper : lower + 1n;
      scanned += forward ? next - cursor : cursor - next;
      cursor = next;
      if (cutBySize) break;
    }
    return { rows, cursor, end: atEnd() };
  }

  /** How many of a window's events fit in `bytesLeft` (the first event of a page always does), and their bytes. */
  private rowsThatFit(query: EventsQuery, { bytesLeft, first }: { bytesLeft: number; first: boolean }) {
    const sizes = this.readRows(query) as unknown as SizeRow[];
    let count = 0;
    let bytes = 0;
    for (const [, size] of sizes) {
      if (bytes + size > bytesLeft && !(first && count === 0)) break;
      bytes += size;
      count++;
    }
    return { count, bytes, found: sizes.length };
  }

  private readRows({ sql, params }: EventsQuery): RawEventRow[] {
    let statement = this.readAllStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], RawEventRow>(sql).raw(true);
      this.readAllStatements.set(sql, statement);
    }
    return statement.all(...params);
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
