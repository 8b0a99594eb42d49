import { EventFilter, RecordedEvent, Subscription, SubscriptionHandler, matchesFilter } from '../event-store';
import { EventsQuery, RawEventRow, eventsQuery, toRecorded } from './event-rows';
import { Commit, HeadWaiter, LiveCommits } from './live-commits';
import { SqliteReadAhead } from './read-ahead';

/** What a subscription reads with: this thread's connection, the reader thread (none for a database in memory). */
export interface LogSource {
  readonly live: LiveCommits;
  readonly readAhead?: SqliteReadAhead;
  readRows(query: EventsQuery): RawEventRow[];
  /** The position of the log's last event, 0 when it has none. */
  head(): bigint;
  /** False once the store has closed its connection. */
  isOpen(): boolean;
}

export interface SubscriptionOptions {
  after?: bigint;
  filter?: EventFilter;
  batchSize: number;
}

/** The next batch of a subscription, asked of the reader thread: the events after `after`, up to `upTo`. */
interface ReadAhead {
  after: bigint;
  upTo?: bigint;
  rows: Promise<RawEventRow[]>;
}

/**
 * Catches up from `after` in batches, then waits at the log's head for the store's next commit, which it is handed
 * as it is rather than reading it back (or for the poll interval, to find other processes' commits). While it is
 * behind, each full batch has the next one read on the reader thread while the handler takes this one.
 */
export class SqliteSubscription implements Subscription {
  private stopped = false;
  private wake?: (commit?: Commit) => void;
  /** Where it waits at the log's head, and for which events (see LiveCommits). */
  private readonly waiter: HeadWaiter;
  private readonly running: Promise<void>;

  constructor(
    private readonly source: LogSource,
    private readonly options: SubscriptionOptions,
    private readonly handler: SubscriptionHandler,
    private readonly onStopped: () => void,
  ) {
    this.waiter = { after: options.after ?? 0n, filter: options.filter };
    this.running = this.loop().catch((error) => {
      if (!this.stopped) handler.onError?.(error);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    this.onStopped();
  }

  private async loop(): Promise<void> {
    const { source, handler } = this;
    const { filter, batchSize } = this.options;
    let after = this.options.after ?? 0n;
    let handedOver: Commit | undefined;
    let ahead: ReadAhead | undefined;
    while (!this.stopped) {
      // A commit made while this subscription waited at the log's head is handed over as it is, not read back.
      if (handedOver && after >= handedOver.headBefore) {
        const commit = handedOver;
        handedOver = undefined;
        const events = commit.events.filter((event) => event.position > after && matchesFilter(event, filter));
        // A handler that answers at once (the read models) is not awaited: the commit's writers hear sooner. The
        // events of a large commit go one at a time, each in a turn of its own, so their handling does not add up.
        const size = commit.large ? 1 : batchSize;
        for (let i = 0; i < events.length && !this.stopped; i += size) {
          if (commit.large && i > 0) await new Promise((resolve) => setImmediate(resolve));
          const handling = handler.onEvents(events.length <= size ? events : events.slice(i, i + size));
          if (handling) await handling;
        }
        if (this.stopped) break;
        after = commit.headAfter;
        if (commit.sequence === source.live.sequence) {
          handler.onCaughtUp?.();
          handedOver = await this.nextCommit(after);
          after = this.waiter.after;
          continue;
        }
      }
      handedOver = undefined;
      const seenCommits = source.live.sequence;
      const batch = this.readBatch(after, ahead);
      const rows = await batch.rows;
      if (this.stopped) break;
      ahead = this.readAhead(rows, batch.upTo);
      const events: RecordedEvent[] = rows.map(toRecorded);
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
      if (this.stopped || seenCommits !== source.live.sequence) continue;
      handedOver = await this.nextCommit(after);
      after = this.waiter.after;
    }
  }

  /**
   * The next commit this subscription wants; `waiter.after` then says how far it has seen. A filtered
   * subscription sleeps through this store's commits that hold none of its events (it neither wakes nor reads).
   */
  private nextCommit(after: bigint): Promise<Commit | undefined> {
    this.waiter.after = after;
    return this.source.live.next((done) => (this.wake = done), this.waiter);
  }

  /**
   * A batch of a subscription that is behind. When the batch before was full, this one was asked of the reader
   * thread then (`ahead`), and is read there while that one was handled; a full batch asks for the next.
   */
  private readBatch(
    after: bigint,
    ahead: ReadAhead | undefined,
  ): { rows: RawEventRow[] | Promise<RawEventRow[]>; upTo?: bigint } {
    if (ahead?.after === after) return ahead;
    const { filter, batchSize } = this.options;
    // A filtered read that finds fewer events than asked has seen the whole log up to its head (see loop).
    const upTo = filter ? this.source.head() : undefined;
    return { rows: this.source.readRows(eventsQuery(after, batchSize, filter, upTo)), upTo };
  }

  /** Asks the reader thread for the batch after `rows`, when they filled theirs (more is likely to follow). */
  private readAhead(rows: RawEventRow[], upTo: bigint | undefined): ReadAhead | undefined {
    const { filter, batchSize } = this.options;
    const { source } = this;
    if (!source.readAhead || rows.length < batchSize) return undefined;
    const after = BigInt(rows[rows.length - 1][0]);
    const query = eventsQuery(after, batchSize, filter, upTo);
    const rowsAhead = source.readAhead.read(query.sql, query.params) as Promise<RawEventRow[]>;
    // Should the reader thread fail, the batch is read here instead (unless the store closed meanwhile).
    return { after, upTo, rows: rowsAhead.catch(() => (source.isOpen() ? source.readRows(query) : [])) };
  }
}
