import Database from 'better-sqlite3';
import {
  AppendResult,
  ConcurrencyError,
  EventFilter,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoreUnavailableError,
  StreamRead,
  Subscription,
  SubscriptionHandler,
} from './event-store';

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

interface EventRow {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: number;
}

/**
 * SQLite's page cache per connection, in KiB (negative: a size, not a page count). better-sqlite3 builds SQLite
 * with 16 MB, which a busy process fills and keeps; the OS caches the file as well, so a smaller one costs little.
 */
export const PAGE_CACHE_SIZE = -4096;

/** The columns of an event read as an array (better-sqlite3's raw mode, which skips building an object per row). */
const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';
type RawEventRow = [number, string, string, number, string, string, string, number];

interface PendingAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

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
`;

/**
 * The embedded event store: one SQLite file in WAL mode. Appends that arrive while a commit is being
 * prepared are grouped into one transaction (each in its own savepoint), so concurrent requests share a sync.
 */
export class SqliteEventStore implements EventStore {
  readonly description: string;
  private readonly db: Database.Database;
  private readonly now: () => Date;
  private readonly pollIntervalMs: number;
  private pending: PendingAppend[] = [];
  private flushScheduled = false;
  private commits = 0;
  private readonly waiters = new Set<() => void>();
  private readonly subscriptions = new Set<{ stop(): Promise<void> }>();
  private readonly readAllStatements = new Map<string, Database.Statement<unknown[], RawEventRow>>();
  private readonly lastRevisionStmt: Database.Statement<[string], { revision: number | null }>;
  private readonly findByIdStmt: Database.Statement<[string], EventRow>;
  private readonly headStmt: Database.Statement<[], { position: number | null }>;
  private readonly insertStmt: Database.Statement;
  private readonly readStreamStmt: Database.Statement<[string, number, number], RawEventRow>;
  private readonly commitBatch: (batch: PendingAppend[]) => Array<{ ok: AppendResult } | { error: unknown }>;

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
    this.findByIdStmt = this.db.prepare('SELECT * FROM events WHERE id = ?');
    this.headStmt = this.db.prepare('SELECT max(position) AS position FROM events');
    this.insertStmt = this.db.prepare(
      'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.readStreamStmt = this.db
      .prepare<[string, number, number], RawEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .raw(true);
    // Each append of several events runs in a savepoint, so one that fails half-way does not undo the others in
    // the batch; a single event is written whole or not at all, and skipping the savepoint halves its cost.
    const appendOne = this.db.transaction((request: PendingAppend) => this.appendNow(request));
    this.commitBatch = this.db.transaction((batch: PendingAppend[]) =>
      batch.map((request) => {
        try {
          return { ok: request.events.length === 1 ? this.appendNow(request) : appendOne(request) };
        } catch (error) {
          // A refused append may be a repeat of one already stored: that is a no-op, not a conflict.
          const repeated = isConflict(error) ? this.repeatedAppend(request) : undefined;
          if (repeated) return { ok: repeated };
          return { error: isConflict(error) ? this.conflict(request) : asStoreFailure(error) };
        }
      }),
    );
    this.description = `sqlite (${options.file}, synchronous=${options.synchronous ?? 'FULL'})`;
  }

  append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => {
      this.pending.push({ stream, events, expected: options.expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    let outcomes: Array<{ ok: AppendResult } | { error: unknown }>;
    try {
      outcomes = this.commitBatch(batch);
    } catch (error) {
      const failure = new StoreUnavailableError('The event store could not commit', { cause: error });
      for (const request of batch) request.reject(failure);
      return;
    }
    this.commits++;
    batch.forEach((request, i) => {
      const outcome = outcomes[i];
      if ('ok' in outcome) request.resolve(outcome.ok);
      else request.reject(outcome.error);
    });
    for (const wake of this.waiters) wake();
  }

  private appendNow(request: PendingAppend): AppendResult {
    const { stream, events, expected } = request;
    // Expecting no stream needs no look-up: should the stream exist, revision 0 is taken and the insert fails.
    const last = expected === 'no_stream' ? null : (this.lastRevisionStmt.get(stream)?.revision ?? null);
    if (!expectationHolds(expected, last)) throw new ConcurrencyError(stream, expected, toActual(last));
    const recordedAt = this.now().getTime();
    let revision = last === null ? 0 : last + 1;
    let position = 0n;
    for (const event of events) {
      const info = this.insertStmt.run(
        event.id,
        stream,
        revision++,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
        recordedAt,
      );
      position = BigInt(info.lastInsertRowid);
    }
    return { nextRevision: BigInt(revision - 1), position };
  }

  /** The result of the earlier append, if `request` repeats it: the same ids, in order, under the same expectation. */
  private repeatedAppend({ stream, events, expected }: PendingAppend): AppendResult | undefined {
    const stored = events.map((event) => this.findByIdStmt.get(event.id));
    const first = stored[0];
    if (!first || !stored.every((row, i) => row?.stream === stream && row.revision === first.revision + i))
      return undefined;
    if (!expectationHolds(expected, first.revision === 0 ? null : first.revision - 1)) return undefined;
    const last = stored[stored.length - 1] as EventRow;
    return { nextRevision: BigInt(last.revision), position: BigInt(last.position) };
  }

  private conflict({ stream, expected }: PendingAppend): ConcurrencyError {
    return new ConcurrencyError(stream, expected, toActual(this.lastRevisionStmt.get(stream)?.revision ?? null));
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
    const prefixes = filter?.streamPrefixes ?? [];
    const types = filter?.eventTypes ?? [];
    const clauses = ['position > ?', "substr(type, 1, 1) <> '$'"];
    if (upTo !== undefined) clauses.push('position <= ?');
    if (prefixes.length) clauses.push(`(${prefixes.map(() => 'substr(stream, 1, ?) = ?').join(' OR ')})`);
    if (types.length) clauses.push(`type IN (${types.map(() => '?').join(', ')})`);
    const sql = `SELECT ${EVENT_COLUMNS} FROM events WHERE ${clauses.join(' AND ')} ORDER BY position LIMIT ?`;
    let statement = this.readAllStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], RawEventRow>(sql).raw(true);
      this.readAllStatements.set(sql, statement);
    }
    const bounds = upTo === undefined ? [Number(after ?? 0n)] : [Number(after ?? 0n), Number(upTo)];
    const params = [...bounds, ...prefixes.flatMap((prefix) => [prefix.length, prefix]), ...types, maxCount];
    return statement.all(...params).map(toRecorded);
  }

  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription {
    let stopped = false;
    let wake: (() => void) | undefined;
    const batchSize = options.batchSize ?? 1000;
    const loop = async () => {
      let after = options.after ?? 0n;
      while (!stopped) {
        const seenCommits = this.commits;
        // A filtered read that finds fewer events than asked has seen the whole log up to its head: the next read
        // starts there, rather than re-scanning what the filter left out since the last event it matched.
        const head = options.filter ? BigInt(this.headStmt.get()?.position ?? 0) : undefined;
        const events = this.readAllNow(after, batchSize, options.filter, head);
        if (events.length < batchSize && head !== undefined && head > after) after = head;
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
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, this.pollIntervalMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          wake = done;
          this.waiters.add(done);
        });
        if (wake) this.waiters.delete(wake);
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

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    if (this.pending.length) this.flush();
    this.db.close();
  }
}

/** `last`: the stream's last revision, null when it has none. */
function expectationHolds(expected: ExpectedRevision, last: number | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return last === null;
  if (expected === 'stream_exists') return last !== null;
  return last !== null && BigInt(last) === expected;
}

function toActual(last: number | null): bigint | 'no_stream' {
  return last === null ? 'no_stream' : BigInt(last);
}

/** A failed expectation, an event id that is already stored, or a revision that is already taken. */
function isConflict(error: unknown): boolean {
  return error instanceof ConcurrencyError || (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** SQLite's own failures (a lock held elsewhere, a full disk) are the store's, not the caller's: 503, not 500. */
function asStoreFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  return new StoreUnavailableError(`The event store could not append: ${(error as Error).message}`, { cause: error });
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
