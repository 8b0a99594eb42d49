import { Logger } from '@nestjs/common';
import { CheckpointStore } from '../../consumers/checkpoint-store';
import { EventFilter, EventStore, RecordedEvent } from '../../event-store/event-store';
import { isDeliverable, matchesAny } from '../event-patterns';
import { WebhookTarget } from '../queries/webhooks.read-model';
import { sleep } from './webhook-delivering';

/** Events of one webhook sent under one claim, one after another, and recorded in one commit. */
export const MAX_BATCH = 100;
/** The events a webhook's consumer keeps read ahead of its receiver, at most: its memory is bounded by this. */
export const MAX_BUFFERED = 2 * MAX_BATCH;
/** A consumer that is only scanning (no event to send) saves its position at most this often. */
const SAVE_EVERY_MS = 1000;

export interface WebhookConsumerDeps {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** The webhook as the read models have it now. */
  target(webhookId: string): WebhookTarget | undefined;
  /** Sends the first events of `batch`: how many are done with (0 when stopped). */
  deliver(webhookId: string, batch: RecordedEvent[], signal: AbortSignal): Promise<number>;
}

/** A buffered event, and the position of the log just before it that the consumer had looked at. */
interface Pending {
  event: RecordedEvent;
  after: bigint;
}

/** The checkpoint name of a webhook's consumer. */
export const checkpointName = (webhookId: string) => `webhook-deliveries-${webhookId}`;

/**
 * One webhook's consumer of the log, with a checkpoint of its own: it reads forward from its position in bounded
 * pages (or takes new events as the read models apply them, once it has caught up), keeps at most MAX_BUFFERED
 * matching events, and hands them to `deliver` in log order, a batch at a time, reading the next page while the
 * receiver answers. Its checkpoint never passes an event not done with, so a restart resumes where it was. A
 * webhook that fails holds back only its own consumer.
 */
export class WebhookConsumer {
  private readonly logger = new Logger(WebhookConsumer.name);
  private readonly stopping = new AbortController();
  private readonly buffer: Pending[] = [];
  /** The last position of the log looked at. */
  private cursor: bigint;
  private saved: bigint;
  private savedAt = 0;
  /** Whether the log may hold events after `cursor` (so far as this consumer knows). */
  private more = true;
  /** Counts the news of appended events, to tell whether some came while a page was read. */
  private news = 0;
  private reading?: Promise<void>;
  private wake?: () => void;
  readonly running: Promise<void>;

  constructor(
    readonly webhookId: string,
    start: bigint,
    private readonly deps: WebhookConsumerDeps,
  ) {
    this.cursor = start;
    this.saved = start;
    this.running = this.run();
  }

  /** How many events it holds read ahead (at most MAX_BUFFERED). */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Stops at once (a send under way is cut off, unrecorded: the next start sends it again). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.running;
  }

  /**
   * Events the read models have applied: all the events of the log in (`from`, last]. A consumer that has looked at
   * everything up to `from` and has room takes them as they are; otherwise it reads them from the log later.
   */
  offer(events: RecordedEvent[], from: bigint | undefined): void {
    this.news++;
    const last = events[events.length - 1].position;
    if (last <= this.cursor) return;
    const target = from !== undefined && !this.reading && this.cursor >= from && this.deps.target(this.webhookId);
    if (!target || !this.take(events, target)) this.more = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      // Disabled or deleted: the dispatcher stops this consumer too.
      if (!this.deps.target(this.webhookId)?.enabled) break;
      if (this.buffer.length === 0) {
        this.save(false);
        if (this.more) await this.readAhead();
        else await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const batch = this.buffer.slice(0, MAX_BATCH).map(({ event }) => event);
      // The next page is read while the receiver answers.
      if (this.buffer.length < MAX_BUFFERED && this.more) void this.readAhead();
      let done = 0;
      try {
        done = await this.deps.deliver(this.webhookId, batch, signal);
      } catch (error) {
        if (signal.aborted) break;
        this.logger.error(`Delivering to webhook ${this.webhookId} failed, trying again: ${String(error)}`);
        await sleep(1000, signal);
      }
      this.buffer.splice(0, done);
      this.save(true);
    }
    await this.reading;
    this.save(true);
  }

  /** Reads the next page of the log into the buffer (one read at a time; a second caller waits for the first). */
  private readAhead(): Promise<void> {
    this.reading ??= this.readPage().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readPage(): Promise<void> {
    const room = MAX_BUFFERED - this.buffer.length;
    const target = this.deps.target(this.webhookId);
    if (room <= 0 || !target) return;
    const news = this.news;
    try {
      const page = await this.deps.store.readLogPage({
        direction: 'forward',
        after: this.cursor,
        maxCount: room,
        filter: filterOf(target.events),
      });
      if (this.take(page.events, target) && page.cursor > this.cursor) this.cursor = page.cursor;
      this.more = !page.end || this.news !== news;
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      this.logger.error(`Reading the log for webhook ${this.webhookId} failed, trying again: ${String(error)}`);
      await sleep(1000, this.stopping.signal);
    }
  }

  /**
   * Buffers the events after the cursor that go to the webhook, while there is room; the cursor follows. Whether
   * it took them all.
   */
  private take(events: RecordedEvent[], target: WebhookTarget): boolean {
    for (const event of events) {
      if (event.position <= this.cursor) continue;
      if (this.buffer.length >= MAX_BUFFERED) return false;
      if (event.position > target.startPosition && isDeliverable(event.type) && matchesAny(target.events, event.type)) {
        this.buffer.push({ event, after: this.cursor });
      }
      this.cursor = event.position;
    }
    return true;
  }

  /** Saves the position before the first event not done with: at once when `now`, else at most each second. */
  private save(now: boolean): void {
    const position = this.buffer.length > 0 ? this.buffer[0].after : this.cursor;
    if (position === this.saved || (!now && Date.now() - this.savedAt < SAVE_EVERY_MS)) return;
    this.deps.checkpoints.save(checkpointName(this.webhookId), position);
    this.saved = position;
    this.savedAt = Date.now();
  }
}

/** Exact event types are read through the store's filter; globs are matched here. */
function filterOf(patterns: string[]): EventFilter | undefined {
  return patterns.some((pattern) => pattern.includes('*')) ? undefined : { eventTypes: patterns };
}
