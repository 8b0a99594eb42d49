import { EventStore, RecordedEvent, Subscription } from '../event-store/event-store';
import { SseWriter } from '../http/sse';
import { toEnvelope } from './event-envelope';
import { EventLogQuery } from './event-query';
import { isSelected, toStoreFilter } from './event-selection';

/** Events held in memory per subscriber at most, besides what the socket buffers. */
const BATCH_SIZE = 100;

/**
 * One subscriber of `GET /v1/events`: the store's subscription from `after` (catch-up, then live), one SSE
 * message per selected event. While the client's socket is full the subscription waits, so a slow client holds
 * back only its own subscription, never the writers, and nothing piles up in memory.
 */
export class EventLogStream {
  private readonly subscription: Subscription;
  private sentEvents = 0;

  constructor(
    store: EventStore,
    private readonly sse: SseWriter,
    private readonly query: EventLogQuery,
    onError: (error: unknown) => void,
  ) {
    this.subscription = store.subscribe(
      { after: query.after, filter: toStoreFilter(query.selection), batchSize: BATCH_SIZE },
      {
        onEvents: (events) => this.forward(events),
        onError: (error) => {
          onError(error);
          // The client reconnects with Last-Event-ID and resumes where it was.
          sse.end();
        },
      },
    );
  }

  /** Events sent so far (buffered in the socket or taken by the client). */
  get sent(): number {
    return this.sentEvents;
  }

  get bufferedBytes(): number {
    return this.sse.bufferedBytes;
  }

  async stop(): Promise<void> {
    this.sse.end();
    await this.subscription.stop();
  }

  private async forward(events: RecordedEvent[]): Promise<void> {
    for (const event of events) {
      if (this.sse.isClosed) return;
      if (!isSelected(this.query.selection, event)) continue;
      this.sentEvents++;
      if (!this.sse.send(event.type, toEnvelope(event), event.position.toString())) await this.sse.drained();
    }
  }
}
