import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  StreamingRead,
} from '@eventstore/db-client';
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
  StoreUnavailableError,
  StreamAppend,
  StreamRead,
  StreamSnapshot,
  Subscription,
  SubscriptionHandler,
} from '../event-store';
import {
  deletedAlready,
  describeConnection,
  isVisible,
  toEventData,
  toExpectedRevision,
  toRecorded,
  toStoreError,
} from './mapping';
import { fromSnapshotEvent, snapshotStream, toSnapshotEvent } from './snapshots';
import { EventStoreDbSubscription } from './subscription';
import { collectWithin, within } from './deadlines';

export interface EventStoreDbEventStoreOptions {
  /** An `esdb://` connection string; credentials in it are never printed. */
  url: string;
  /** Upper bound on each call to the server, so an unreachable server fails fast. Default 5000. */
  deadlineMs?: number;
  /** Subscription reconnect backoff: first delay, doubling up to the maximum. Defaults 100 and 5000. */
  retryInitialMs?: number;
  retryMaxMs?: number;
}

const READ_ALL_PAGE = 1000;
/** Events of `$all` one page read looks at, at most. */
const PAGE_SCAN_EVENTS = 20_000;
/** Events read at once for a page bounded by bytes. */
const SIZED_READ = 20;

/** The event store on EventStoreDB through `@eventstore/db-client` (gRPC). Positions are commit positions. */
export class EventStoreDbEventStore implements EventStore {
  readonly description: string;
  private readonly client: EventStoreDBClient;
  private readonly deadlineMs: number;
  private readonly retryInitialMs: number;
  private readonly retryMaxMs: number;
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.url);
    this.description = describeConnection(options.url);
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.retryInitialMs = options.retryInitialMs ?? 100;
    this.retryMaxMs = options.retryMaxMs ?? 5000;
  }

  async append(stream: string, events: NewEvent[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    try {
      const result = await this.withDeadline(
        'append',
        this.client.appendToStream(stream, events.map(toEventData), {
          expectedRevision: toExpectedRevision(options.expected),
          deadline: this.deadlineMs,
        }),
      );
      this.storeAnswered();
      // A server acknowledging a repeated (idempotent) append may leave the position out.
      const position = result.position?.commit ?? (await this.positionOf(stream, result.nextExpectedRevision));
      return { nextRevision: result.nextExpectedRevision, position };
    } catch (error) {
      throw toStoreError(error, 'append', { stream, expected: options.expected });
    }
  }

  /** Side by side, each on its own; no multi-stream commit here, so an append of several parts is refused. */
  appendBatch(appends: Iterable<StreamAppend[]>): Promise<BatchAppendOutcome[]> {
    let all: StreamAppend[][];
    try {
      all = Array.from(appends); // all read before any is sent: reading them may throw, and then none is written
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return Promise.all(
      all.map(async (parts): Promise<BatchAppendOutcome> => {
        if (parts.length !== 1) return { error: new Error('EventStoreDB appends to one stream at a time') };
        const [{ stream, events, expected }] = parts;
        return this.append(stream, events, { expected }).then(
          (result) => ({ ok: [result] }),
          (error: unknown) => ({ error }),
        );
      }),
    );
  }

  async readStream(stream: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<StreamRead> {
    try {
      const read = this.client.readStream(stream, {
        fromRevision: options.fromRevision ?? START,
        maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
      });
      const events = (await this.collect('readStream', read)).map(toRecorded);
      this.storeAnswered();
      return { exists: true, events: events.filter((event): event is RecordedEvent => event !== undefined) };
    } catch (error) {
      if (error instanceof StreamNotFoundError) {
        this.storeAnswered();
        return { exists: false, events: [] };
      }
      throw toStoreError(error, 'readStream');
    }
  }

  deleteStream(stream: string): Promise<void> {
    const failed = (error: unknown) =>
      deletedAlready(error) ? undefined : Promise.reject(toStoreError(error, 'delete'));
    return this.client.deleteStream(stream).then(() => this.storeAnswered(), failed);
  }

  /** The client's readAll takes no filter, so pages of `$all` are filtered here. */
  async readAll(options: { after?: bigint; maxCount?: number; filter?: EventFilter } = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? 1000;
    const found: RecordedEvent[] = [];
    let after = options.after ?? 0n;
    try {
      while (found.length < maxCount) {
        const read = this.client.readAll({
          fromPosition: after > 0n ? { commit: after, prepare: after } : START,
          maxCount: READ_ALL_PAGE,
        });
        const page = await this.collect('readAll', read);
        let last = after;
        for (const resolved of page) {
          const event = toRecorded(resolved);
          // A read from a position includes the event at that position; ours is exclusive.
          if (!event || event.position <= last) continue;
          last = event.position;
          if (isVisible(event, options.filter)) found.push(event);
          if (found.length === maxCount) return found;
        }
        if (page.length < READ_ALL_PAGE || last === after) return found;
        after = last;
      }
      return found;
    } catch (error) {
      throw toStoreError(error, 'readAll');
    }
  }

  async head(): Promise<bigint> {
    try {
      const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
      const [last] = await this.collect('readAll', read);
      this.storeAnswered();
      return last?.commitPosition ?? last?.event?.position?.commit ?? 0n;
    } catch (error) {
      throw toStoreError(error, 'readAll');
    }
  }

  /**
   * Pages of `$all` in either direction, filtered here, each read no larger than the page asked for needs (events
   * can be large); at most PAGE_SCAN_EVENTS events of the log looked at.
   */
  async readLogPage(request: LogPageRequest): Promise<LogPage> {
    const page = await this.readLog(request, false);
    return { ...page, events: page.events.map(({ event }) => event) };
  }

  /** The client hands events over parsed, so their text is made here, once. */
  async readLogJson(request: LogPageRequest): Promise<LogJsonPage> {
    const page = await this.readLog(request, true);
    return {
      ...page,
      events: page.events.map(({ event: { data: _data, metadata: _metadata, ...rest }, json }) => ({
        ...rest,
        ...json!,
      })),
    };
  }

  /**
   * Reads $all in slices until the page is full (by count, or by the bytes of its events' JSON), the log ends, or
   * PAGE_SCAN_EVENTS events were looked at. With a byte bound the slices are small: the client holds a whole
   * slice in memory.
   */
  private async readLog({ direction, after, before, maxCount, maxBytes, filter }: LogPageRequest, text: boolean) {
    const forward = direction === 'forward';
    const found: Array<{ event: RecordedEvent; json?: { dataJson: Buffer; metadataJson: Buffer } }> = [];
    let bytesLeft = maxBytes ?? Infinity;
    const readSize =
      maxBytes === undefined ? Math.min(READ_ALL_PAGE, Math.max(maxCount, 100)) : Math.min(maxCount, SIZED_READ);
    let cursor = forward ? (after ?? 0n) : before;
    try {
      for (let scanned = 0; scanned < PAGE_SCAN_EVENTS; scanned += readSize) {
        const from = cursor === undefined || (forward && cursor === 0n) ? (forward ? START : END) : undefined;
        const read = this.client.readAll({
          direction: forward ? FORWARDS : BACKWARDS,
          fromPosition: from ?? { commit: cursor!, prepare: cursor! },
          maxCount: readSize,
        });
        const page = await this.collect('readAll', read);
        this.storeAnswered();
        for (const resolved of page) {
          const event = toRecorded(resolved);
          // A forward read from a position includes the event there; ours are exclusive both ways.
          if (!event || (cursor !== undefined && (forward ? event.position <= cursor : event.position >= cursor)))
            continue;
          if (isVisible(event, filter)) {
            const json =
              text || maxBytes !== undefined
                ? {
                    dataJson: Buffer.from(JSON.stringify(event.data)),
                    metadataJson: Buffer.from(JSON.stringify(event.metadata)),
                  }
                : undefined;
            const size = json ? json.dataJson.length + json.metadataJson.length : 0;
            if (size > bytesLeft && found.length > 0) return { events: found, cursor: cursor!, end: false };
            bytesLeft -= size;
            found.push({ event, json });
          }
          cursor = event.position;
          if (found.length === maxCount || bytesLeft <= 0) return { events: found, cursor, end: false };
        }
        if (page.length < readSize) return { events: found, cursor: cursor ?? 0n, end: true };
      }
      return { events: found, cursor: cursor ?? 0n, end: false };
    } catch (error) {
      throw toStoreError(error, 'readAll');
    }
  }

  /** The last event of the companion stream (see snapshots.ts), read backwards. */
  async readSnapshot(stream: string): Promise<StreamSnapshot | undefined> {
    let events;
    try {
      const read = this.client.readStream(snapshotStream(stream), {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      });
      events = await this.collect('readSnapshot', read);
      this.storeAnswered();
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw toStoreError(error, 'readSnapshot');
    }
    return events.length ? fromSnapshotEvent(events[0]) : undefined;
  }

  /** Appends to the companion stream; when that creates it, sets `$maxCount` 1 so the server keeps the last only. */
  async writeSnapshot(stream: string, snapshot: StreamSnapshot): Promise<void> {
    const companion = snapshotStream(stream);
    try {
      const written = await this.withDeadline(
        'writeSnapshot',
        this.client.appendToStream(companion, toSnapshotEvent(snapshot), {
          expectedRevision: ANY,
          deadline: this.deadlineMs,
        }),
      );
      if (written.nextExpectedRevision === 0n) {
        await this.withDeadline(
          'writeSnapshot',
          this.client.setStreamMetadata(companion, { maxCount: 1 }, { deadline: this.deadlineMs }),
        );
      }
    } catch (error) {
      throw toStoreError(error, 'writeSnapshot');
    }
  }

  subscribe(
    options: { after?: bigint; filter?: EventFilter; batchSize?: number },
    handler: SubscriptionHandler,
  ): Subscription {
    const subscription = new EventStoreDbSubscription(
      this.client,
      {
        after: options.after,
        filter: options.filter,
        batchSize: options.batchSize ?? 100,
        deadlineMs: this.deadlineMs,
        retryInitialMs: this.retryInitialMs,
        retryMaxMs: this.retryMaxMs,
      },
      handler,
    );
    this.subscriptions.add(subscription);
    return {
      stop: async () => {
        await subscription.stop();
        this.subscriptions.delete(subscription);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.subscriptions.clear();
    await this.client.dispose();
  }

  /** The server is back: subscriptions waiting out a reconnect backoff resubscribe now, not seconds later. */
  private storeAnswered(): void {
    for (const subscription of this.subscriptions) subscription.retryNow();
  }

  private async positionOf(stream: string, revision: bigint): Promise<bigint> {
    const read = await this.readStream(stream, { fromRevision: revision, maxCount: 1 });
    const event = read.events[0];
    if (!event) throw new StoreUnavailableError(`EventStoreDB did not return ${stream}@${revision} just appended`);
    return event.position;
  }

  private collect<T>(what: string, read: StreamingRead<T>): Promise<T[]> {
    return collectWithin(read, what, this.deadlineMs);
  }

  private withDeadline<T>(what: string, call: Promise<T>): Promise<T> {
    return within(call, what, this.deadlineMs);
  }
}
