import {
  EventFilter,
  EventStore,
  EventJson,
  RecordedEvent,
  Subscription,
  matchesFilter,
} from '../event-store/event-store';
import { CHUNK_BYTES, CatchUpLimits, LiveQueue, SharedChunk, joined, sharedChunks } from './feed-writes';
import { yieldIfTurnIsLong } from '../shared/turn-budget';
import { FlushPacing } from './flush-pacing';

/** Where a subscriber's messages go (an SSE response): `write` says false once it holds enough for now. */
export interface FeedSink {
  write(chunk: string | Buffer): boolean;
  /** Writes bytes that other sinks get alike; the sink may keep what it makes of them on `chunk` for the others. */
  writeShared(chunk: SharedChunk): boolean;
  /** Resolves once the sink takes writes again, or is closed. */
  drained(): Promise<void>;
  readonly isClosed: boolean;
  /** Ends the sink: the feed failed, and the client resumes with Last-Event-ID. */
  end(): void;
}

/** What a subscriber asked for: the store's filter, and its shape's key (subscribers with one key share work). */
export interface FeedSelection {
  key: string;
  filter: EventFilter;
}

/** Events a catch-up read asks the store for at once (and no more than `sliceBytes` of them). */
const CATCH_UP_PAGE = 100;

/** One subscriber of the feed: where it is in the log, and whether it takes the live commits. */
export class FeedSubscriber {
  /** Every event up to here (that matched) has been written. */
  after: bigint;
  live = false;
  sent = 0;
  stopped = false;

  constructor(
    readonly selection: FeedSelection,
    readonly sink: FeedSink,
    after: bigint,
  ) {
    this.after = after;
  }
}

/** The live subscribers of one filter shape: a commit's events are filtered and encoded once for all of them. */
interface ShapeGroup {
  filter: EventFilter;
  subscribers: Set<FeedSubscriber>;
}

/**
 * One live feed of the log per process, shared by every subscriber of `GET /v1/events`: the store hands each
 * commit to the feed once (one subscription, at the head), which filters it in memory per filter shape, encodes
 * each event once, and writes each subscriber its messages in few writes. A subscriber that is behind (it started
 * in the past, or its socket filled up) catches up on its own in bounded pages of the store, which yield to the
 * event loop, then joins the live commits again; so a slow subscriber holds back only itself.
 */
export class EventFeed {
  private subscription?: Subscription;
  private starting?: Promise<void>;
  /** Every event up to here has been handed to the live subscribers. */
  private position = 0n;
  private readonly shapes = new Map<string, ShapeGroup>();
  private readonly subscribers = new Set<FeedSubscriber>();
  /** Events handed over and not yet written (see `distribute`). */
  private readonly queue = new LiveQueue();
  private flushing = false;
  private flushTimer?: NodeJS.Timeout;
  private flushAt = 0;
  private lastFlush = 0;
  private readonly pacing: FlushPacing;

  constructor(
    private readonly store: EventStore,
    private readonly encoding: {
      /** A live event's message. */
      live: (event: RecordedEvent) => string;
      /** The message of an event read to catch up, made from its stored JSON. */
      stored: (event: EventJson) => string | Buffer;
    },
    private readonly catchUps: CatchUpLimits,
    private readonly onError: (error: unknown) => void = () => undefined,
    pacing?: FlushPacing,
  ) {
    this.pacing = pacing ?? new FlushPacing();
  }

  /** The position of the last event the feed handed out (the log's head once it runs): where `from=end` starts. */
  async head(): Promise<bigint> {
    await this.start();
    return this.position;
  }

  /** Adds a subscriber from `after` (exclusive; undefined: the start of the log). */
  async subscribe(selection: FeedSelection, sink: FeedSink, after?: bigint): Promise<FeedSubscriber> {
    await this.start();
    const subscriber = new FeedSubscriber(selection, sink, after ?? 0n);
    this.subscribers.add(subscriber);
    if (subscriber.after >= this.position) this.goLive(subscriber);
    else void this.catchUp(subscriber);
    return subscriber;
  }

  unsubscribe(subscriber: FeedSubscriber): void {
    subscriber.stopped = true;
    this.subscribers.delete(subscriber);
    this.leaveLive(subscriber);
  }

  get size(): number {
    return this.subscribers.size;
  }

  async stop(): Promise<void> {
    // What waits for a paced flush goes now.
    if (this.flushTimer) this.flush();
    const subscription = this.subscription;
    this.subscription = undefined;
    this.starting = undefined;
    await subscription?.stop();
  }

  private start(): Promise<void> {
    this.starting ??= (async () => {
      this.position = await this.store.head();
      this.subscription = this.store.subscribe(
        { after: this.position, batchSize: 1000 },
        { onEvents: (events) => this.distribute(events), onError: (error) => this.failed(error) },
      );
    })().catch((error) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** The feed stopped: every subscriber ends (a client resumes with Last-Event-ID); the next one starts it again. */
  private failed(error: unknown): void {
    this.onError(error);
    this.subscription = undefined;
    this.starting = undefined;
    for (const subscriber of this.subscribers) {
      this.unsubscribe(subscriber);
      subscriber.sink.end();
    }
  }

  /**
   * A commit (or a batch of them): queued, and written to the live subscribers once this turn of the event loop is
   * over, or when the pacing's interval (flush-pacing.ts) since the last write is over, with whatever else came
   * meanwhile, or once CHUNK_BYTES of messages wait: each subscriber gets one write per flush, whatever the commit
   * rate. Never waits for a subscriber.
   */
  private distribute(events: RecordedEvent[]): void {
    if (events.length === 0) return;
    // Only an event some live subscriber takes is encoded now (and counts toward the bytes that bring a flush on).
    for (const event of events) this.queue.push(event, this.isWanted(event) ? this.encoding.live(event) : undefined);
    this.position = events[events.length - 1].position;
    const now = performance.now();
    const due = this.queue.full ? now : this.lastFlush + this.pacing.intervalMs(this.queue.events.length);
    // A flush is coming by then (one this turn, or a timer due sooner) and takes these too.
    if (this.flushing && (this.flushTimer === undefined || due >= this.flushAt)) return;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushing = true;
    this.flushAt = due;
    if (due <= now) setImmediate(() => this.flush());
    else this.flushTimer = setTimeout(() => this.flush(), due - now);
  }

  private isWanted(event: RecordedEvent): boolean {
    for (const group of this.shapes.values()) if (matchesFilter(event, group.filter)) return true;
    return false;
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushing = false;
    this.lastFlush = performance.now();
    const { events, messages } = this.queue.take();
    if (events.length === 0) return;
    this.pacing.flushed(events.length);
    this.writeLive(events, messages);
  }

  /** The events, to each live subscriber whose filter they match. */
  private writeLive(events: RecordedEvent[], messages: Array<string | undefined>): void {
    const message = (i: number) => (messages[i] ??= this.encoding.live(events[i]));
    for (const group of this.shapes.values()) {
      const matching: number[] = [];
      events.forEach((event, i) => {
        if (matchesFilter(event, group.filter)) matching.push(i);
      });
      if (matching.length === 0) continue;
      // Each shape's messages encoded once, in chunks that every subscriber of the shape is written as they are.
      const chunks = sharedChunks(matching.map((i) => [events[i].position, message(i)]));
      const first = events[matching[0]].position;
      for (const subscriber of [...group.subscribers]) {
        if (subscriber.after < first) {
          this.writeChunks(subscriber, chunks);
        } else {
          const own = matching.filter((i) => events[i].position > subscriber.after);
          this.writeEvents(
            subscriber,
            own.map((i) => events[i]),
            (k) => message(own[k]),
          );
        }
      }
    }
    const last = events[events.length - 1].position;
    for (const group of this.shapes.values())
      for (const subscriber of group.subscribers) if (subscriber.after < last) subscriber.after = last;
  }

  private writeChunks(subscriber: FeedSubscriber, chunks: SharedChunk[]): void {
    for (const chunk of chunks) {
      subscriber.sent += chunk.count;
      subscriber.after = chunk.last;
      if (!subscriber.sink.writeShared(chunk)) return this.fallBehind(subscriber);
    }
  }

  /**
   * Writes the events' messages in chunks of about CHUNK_BYTES; once the sink is full, a live subscriber falls
   * behind from the last message written. Returns how many it wrote.
   */
  private writeEvents(
    subscriber: FeedSubscriber,
    events: Array<{ position: bigint }>,
    messageOf: (i: number) => string | Buffer,
  ): number {
    let parts: Array<string | Buffer> = [];
    let length = 0;
    let count = 0;
    for (let i = 0; i < events.length; i++) {
      const message = messageOf(i);
      parts.push(message);
      length += message.length;
      if (length < CHUNK_BYTES && i < events.length - 1) continue;
      subscriber.sent += i + 1 - count;
      count = i + 1;
      subscriber.after = events[i].position;
      const took = subscriber.sink.write(joined(parts));
      parts = [];
      length = 0;
      if (!took) {
        if (subscriber.live) this.fallBehind(subscriber);
        return count;
      }
    }
    return count;
  }

  private fallBehind(subscriber: FeedSubscriber): void {
    this.leaveLive(subscriber);
    void this.catchUp(subscriber);
  }

  /**
   * Slices of the store from where the subscriber is, as fast as its sink takes them, until it reaches the feed.
   * Each slice (at most `sliceBytes` of events, read as their stored JSON and sent as it is) is read in one of the process's
   * catch-up slots, held until the sink has taken the slice: so the catch-ups of every client together hold at most
   * `slots.size` slices in memory. A sink that has not taken its slice within `slowReaderMs` is ended (its client
   * resumes with Last-Event-ID) rather than keep a slot from the others.
   */
  private async catchUp(subscriber: FeedSubscriber): Promise<void> {
    const { sink, selection } = subscriber;
    const gone = () => subscriber.stopped || sink.isClosed;
    try {
      while (!gone()) {
        await sink.drained();
        // Many sinks drain in the same turn: each slice takes its turn (see turn-budget.ts), so timers go between.
        await yieldIfTurnIsLong();
        if (gone()) return;
        if (subscriber.after >= this.position) return this.goLive(subscriber);
        const release = await this.catchUps.slots.acquire();
        try {
          if (gone()) return;
          const page = await this.store.readLogJson({
            direction: 'forward',
            after: subscriber.after,
            maxCount: CATCH_UP_PAGE,
            maxBytes: this.catchUps.sliceBytes,
            filter: selection.filter,
          });
          if (gone()) return;
          const events = page.events.filter((event) => event.position > subscriber.after);
          const written = this.writeEvents(subscriber, events, (i) => this.encoding.stored(events[i]));
          if (written === events.length && page.cursor > subscriber.after) subscriber.after = page.cursor;
          if (!(await this.takenInTime(sink))) return this.endSlowReader(subscriber);
        } finally {
          release();
        }
      }
    } catch (error) {
      this.onError(error);
      this.unsubscribe(subscriber);
      sink.end();
    }
  }

  /** Whether the sink took what it was written within `slowReaderMs` (or closed). */
  private async takenInTime(sink: FeedSink): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>(
      (resolve) => (timer = setTimeout(() => resolve(false), this.catchUps.slowReaderMs)),
    );
    try {
      return await Promise.race([sink.drained().then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private endSlowReader(subscriber: FeedSubscriber): void {
    this.unsubscribe(subscriber);
    subscriber.sink.end();
  }

  private goLive(subscriber: FeedSubscriber): void {
    if (subscriber.stopped) return;
    let group = this.shapes.get(subscriber.selection.key);
    if (!group)
      this.shapes.set(
        subscriber.selection.key,
        (group = { filter: subscriber.selection.filter, subscribers: new Set() }),
      );
    group.subscribers.add(subscriber);
    subscriber.live = true;
  }

  private leaveLive(subscriber: FeedSubscriber): void {
    subscriber.live = false;
    const group = this.shapes.get(subscriber.selection.key);
    if (!group) return;
    group.subscribers.delete(subscriber);
    if (group.subscribers.size === 0) this.shapes.delete(subscriber.selection.key);
  }
}
