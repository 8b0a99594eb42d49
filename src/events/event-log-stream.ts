import { SseWriter } from '../http/sse';
import { EventFeed, FeedSubscriber } from '../live/event-feed';
import { EventLogQuery } from './event-query';
import { selectionKey, toStoreFilter } from './event-selection';

/**
 * One subscriber of `GET /v1/events` on the process's shared feed (live/event-feed.ts): from `after` (catch-up,
 * then live), one SSE message per selected event. While the client's socket is full it falls behind and catches
 * up on its own later, so a slow client holds back only itself, never the writers, and nothing piles up in memory.
 */
export class EventLogStream {
  private subscriber?: FeedSubscriber;
  private stopped = false;

  private constructor(
    private readonly feed: EventFeed,
    private readonly sse: SseWriter,
  ) {}

  static async open(feed: EventFeed, sse: SseWriter, query: EventLogQuery): Promise<EventLogStream> {
    const stream = new EventLogStream(feed, sse);
    const selection = { key: selectionKey(query.selection), filter: toStoreFilter(query.selection) };
    const after = query.fromEnd ? await feed.head() : query.after;
    const subscriber = await feed.subscribe(selection, sse, after);
    // The client may have gone while the feed started.
    if (stream.stopped || sse.isClosed) feed.unsubscribe(subscriber);
    else stream.subscriber = subscriber;
    return stream;
  }

  /** Events sent so far (buffered in the socket or taken by the client). */
  get sent(): number {
    return this.subscriber?.sent ?? 0;
  }

  get bufferedBytes(): number {
    return this.sse.bufferedBytes;
  }

  stop(): void {
    this.stopped = true;
    if (this.subscriber) this.feed.unsubscribe(this.subscriber);
    this.sse.end();
  }
}
