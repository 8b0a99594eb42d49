import {
  AccessDeniedError,
  AllStreamResolvedEvent,
  EventStoreDBClient,
  Filter,
  START,
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
} from '@eventstore/db-client';
import { EventFilter, RecordedEvent, StoreUnavailableError, Subscription, SubscriptionHandler } from '../event-store';
import { isVisible, toRecorded } from './mapping';

export interface SubscriptionSettings {
  after?: bigint;
  filter?: EventFilter;
  batchSize: number;
  /** A (re)subscription that is not confirmed within this time counts as dropped. */
  deadlineMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

interface SessionEnd {
  confirmed: boolean;
  error?: unknown;
}

/**
 * A catch-up subscription to `$all` that survives dropped connections: it resubscribes with exponential
 * backoff from the last position it handed out, and skips anything at or before it, so there is no gap and
 * no double delivery. A call that reached the server (`retryNow`) cuts the backoff short. The handler's batches
 * are awaited one at a time; a drop and the resumption after it are reported once each.
 */
export class EventStoreDbSubscription implements Subscription {
  private stopped = false;
  private dropped = false;
  private last: bigint;
  private wake: () => void = () => undefined;
  private endBackoff: () => void = () => undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly settings: SubscriptionSettings,
    private readonly handler: SubscriptionHandler,
  ) {
    this.last = settings.after ?? 0n;
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.done;
  }

  /** The store answered another call: if waiting out a backoff, resubscribe at once. */
  retryNow(): void {
    this.endBackoff();
  }

  private async run(): Promise<void> {
    let delay = this.settings.retryInitialMs;
    try {
      while (!this.stopped) {
        const end = await this.session();
        if (this.stopped) return;
        if (end.error instanceof AccessDeniedError) throw end.error;
        if (!this.dropped) {
          this.dropped = true;
          this.handler.onDropped?.(end.error ?? new Error('the server ended the subscription'));
        }
        if (end.confirmed) delay = this.settings.retryInitialMs;
        const woken = await this.sleep(delay);
        delay = woken ? this.settings.retryInitialMs : Math.min(delay * 2, this.settings.retryMaxMs);
      }
    } catch (error) {
      // The handler failed, or the server refused us: retrying would not help.
      if (!this.stopped) this.handler.onError?.(error);
    }
  }

  /** One server subscription, from the last position, until it drops or stop() is called. */
  private async session(): Promise<SessionEnd> {
    const subscription = this.client.subscribeToAll({
      fromPosition: this.last > 0n ? { commit: this.last, prepare: this.last } : START,
      filter: serverFilter(this.settings.filter),
    });
    const inbox: AllStreamResolvedEvent[] = [];
    // 'caughtUp' is emitted when the message is parsed, possibly before earlier events were read from the
    // stream's buffer; so it is recorded as "after this many events", counting those still buffered.
    const caughtUpAfter: number[] = [];
    const highWater = Math.max(2 * this.settings.batchSize, 64);
    let received = 0;
    let taken = 0;
    let confirmed = false;
    let ended = false;
    let error: unknown;
    let signal: () => void = () => undefined;
    this.wake = () => signal();
    const unconfirmed = setTimeout(() => {
      error = new StoreUnavailableError(
        `EventStoreDB did not confirm the subscription within ${this.settings.deadlineMs} ms`,
      );
      ended = true;
      signal();
    }, this.settings.deadlineMs);

    subscription
      .on('confirmation', () => {
        confirmed = true;
        clearTimeout(unconfirmed);
        if (this.dropped) {
          this.dropped = false;
          this.handler.onResumed?.();
        }
      })
      .on('data', (resolved: AllStreamResolvedEvent) => {
        inbox.push(resolved);
        received++;
        if (inbox.length >= highWater) subscription.pause();
        signal();
      })
      .on('caughtUp', () => {
        caughtUpAfter.push(received + subscription.readableLength);
        signal();
      })
      .on('error', (cause: unknown) => {
        error ??= cause;
        ended = true;
        signal();
      })
      .on('end', () => {
        ended = true;
        signal();
      });

    try {
      while (!this.stopped) {
        if (caughtUpAfter.length > 0 && caughtUpAfter[0] <= taken) {
          caughtUpAfter.shift();
          this.handler.onCaughtUp?.();
        } else if (inbox.length > 0) {
          const batch = inbox.splice(0, Math.min(this.settings.batchSize, (caughtUpAfter[0] ?? Infinity) - taken));
          taken += batch.length;
          if (subscription.isPaused() && inbox.length < highWater / 2) subscription.resume();
          await this.deliver(batch);
        } else if (ended) {
          break;
        } else {
          await new Promise<void>((resolve) => (signal = resolve));
        }
      }
    } finally {
      clearTimeout(unconfirmed);
      await subscription.unsubscribe().catch(() => undefined);
      subscription.destroy();
    }
    return { confirmed, error };
  }

  private async deliver(batch: AllStreamResolvedEvent[]): Promise<void> {
    const events: RecordedEvent[] = [];
    let last = this.last;
    for (const resolved of batch) {
      const event = toRecorded(resolved);
      if (!event || event.position <= last) continue;
      last = event.position;
      if (isVisible(event, this.settings.filter)) events.push(event);
    }
    if (events.length > 0) await this.handler.onEvents(events);
    this.last = last;
  }

  /** Resolves true when cut short by `retryNow` (or `stop`), false when the time ran out. */
  private sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const end = (woken: boolean) => {
        clearTimeout(timer);
        this.wake = this.endBackoff = () => undefined;
        resolve(woken);
      };
      const timer = setTimeout(() => end(false), ms);
      this.wake = this.endBackoff = () => end(true);
    });
  }
}

/**
 * The server filters on one thing only, stream names or event types; what it cannot also exclude
 * (`$`-events inside the prefixed streams, the event types of a prefix filter) the adapter drops itself.
 */
function serverFilter(filter: EventFilter | undefined): Filter {
  if (filter?.streamPrefixes?.length) return streamNameFilter({ prefixes: filter.streamPrefixes });
  if (filter?.streams?.length) return streamNameFilter({ prefixes: filter.streams });
  if (filter?.eventTypes?.length) {
    return eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` });
  }
  return excludeSystemEvents();
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
