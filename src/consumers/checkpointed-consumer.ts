import { Logger } from '@nestjs/common';
import { EventFilter, EventStore, RecordedEvent, Subscription } from '../event-store/event-store';
import { CheckpointStore } from './checkpoint-store';
import { CommitPositionSequence } from './commit-position-sequence';

export interface FollowOptions {
  /** The events handed to `handle`. */
  filter?: EventFilter;
  batchSize?: number;
  /** While catching up, only these events; once caught up, every event `filter` lets through. */
  catchUpFilter?: EventFilter;
}

/**
 * A subscription to the log with a checkpoint (Eventuous's subscription with checkpoint): it follows the store
 * from where its checkpoint says, hands the events to `handle` in batches, and moves the checkpoint once they are
 * handled, so that after a restart it reads on from there. An event a consumer finishes later (a run it claims in
 * the background) is `hold`-ed: the checkpoint then stays below the lowest one not finished yet, whatever order
 * they finish in. A consumer keeps only its handling of events; handling one twice must change nothing.
 */
export abstract class CheckpointedConsumer {
  /** The checkpoint's name. */
  protected abstract readonly name: string;
  protected readonly logger = new Logger(this.constructor.name);
  private sequence = new CommitPositionSequence(0n);
  private committed = 0n;
  private subscription?: Subscription;
  private failure?: unknown;
  private droppedAt?: number;
  /** Whether it has caught up with the log since it started following. */
  caughtUp = false;
  /**
   * The checkpoint is written at most this often, the latest position then (0: at each move). A consumer whose
   * handling of an event twice changes nothing may let it lag, so that a burst of events costs a write, not one
   * per batch; after a restart it reads that much of the log again. Written at once from `stopFollowing` on.
   */
  protected readonly checkpointEveryMs: number = 0;
  private unsaved?: bigint;
  private checkpointTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    protected readonly store: EventStore,
    protected readonly checkpoints: CheckpointStore,
  ) {}

  /** Whether handling failed for good: it follows the log no more. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Whether the store's subscription is cut off (it reconnects by itself). */
  get dropped(): boolean {
    return this.droppedAt !== undefined;
  }

  /**
   * Handles a batch, in log order; the next batch waits until the returned promise settles. Events it does not
   * `hold` are done with once it has settled; a failure stops the consumer (its checkpoint stays before the batch).
   */
  protected abstract handle(events: RecordedEvent[]): void | Promise<void>;

  /**
   * Follows the log from the checkpoint: resolves once it has caught up, rejects if handling failed (a caller
   * need not wait; the failure is logged either way).
   */
  protected follow(options: FollowOptions = {}): Promise<void> {
    const start = this.loadCheckpoint();
    this.stopped = false;
    this.sequence = new CommitPositionSequence(start);
    this.committed = start;
    const following = new Promise<void>((resolve, reject) => {
      const caughtUp = () => {
        this.caughtUp = true;
        resolve();
      };
      const live = () => void this.subscribe(options.filter, options.batchSize, caughtUp, reject);
      if (options.catchUpFilter) this.catchUpThen(live, options, reject);
      else live();
    });
    following.catch(() => undefined);
    return following;
  }

  async stopFollowing(): Promise<void> {
    await this.subscription?.stop();
    this.stopped = true;
    this.saveLagging();
  }

  /** Keeps `event` unfinished, and the checkpoint below it, until the returned function is called. */
  protected hold(event: RecordedEvent): () => void {
    const { position } = event;
    this.sequence.hold(position);
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      this.sequence.finish(position);
      this.commit();
    };
  }

  /**
   * The batch is handled (but for the events held): the checkpoint moves now. Called after `handle`; a consumer
   * whose checkpoint commits with its writes calls it sooner, inside its own transaction.
   */
  protected handled(events: RecordedEvent[]): void {
    this.sequence.pass(events[events.length - 1].position);
    this.commit();
  }

  protected loadCheckpoint(): bigint {
    return this.checkpoints.load(this.name);
  }

  protected saveCheckpoint(position: bigint): void {
    this.checkpoints.save(this.name, position);
  }

  /** The store's subscription dropped (it reconnects by itself). */
  protected onDropped(_reason: unknown): void {}

  /** The store's subscription is back after `_afterMs`. */
  protected onResumed(_afterMs: number): void {}

  private commit(): void {
    const position = this.sequence.committable;
    if (position === this.committed) return;
    if (this.checkpointEveryMs > 0 && !this.stopped) {
      this.unsaved = position;
      this.checkpointTimer ??= setTimeout(() => this.saveLagging(), this.checkpointEveryMs).unref();
    } else {
      this.saveCheckpoint(position);
      this.unsaved = undefined;
    }
    this.committed = position;
  }

  /** Writes the checkpoint held back (checkpointEveryMs), if any. */
  private saveLagging(): void {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    const position = this.unsaved;
    if (position === undefined) return;
    this.unsaved = undefined;
    try {
      this.saveCheckpoint(position);
    } catch (error) {
      // The next move writes a later one; until then a restart reads a little more of the log again.
      this.logger.warn(`Could not save the checkpoint at ${position}: ${String(error)}`);
    }
  }

  /** Catches up reading `catchUpFilter`'s events only, then hands over to `live`. */
  private catchUpThen(live: () => void, { catchUpFilter, batchSize }: FollowOptions, reject: (error: unknown) => void) {
    let switched = false;
    const onCaughtUp = () => {
      if (switched) return;
      switched = true;
      // Deferred: a store may call this before `subscribe` has returned.
      queueMicrotask(() => {
        catchingUp.active = false;
        void catchingUp.subscription.stop();
        live();
      });
    };
    const catchingUp = this.subscribe(catchUpFilter, batchSize, onCaughtUp, reject);
  }

  /** Follows the store from what has been handed out so far; events come to `handle` while `active` holds. */
  private subscribe(
    filter: EventFilter | undefined,
    batchSize: number | undefined,
    onCaughtUp: () => void,
    reject: (error: unknown) => void,
  ): { subscription: Subscription; active: boolean } {
    const following = { subscription: undefined as unknown as Subscription, active: true };
    following.subscription = this.subscription = this.store.subscribe(
      { after: this.sequence.last, filter, batchSize },
      {
        onEvents: (events) => (following.active ? this.onEvents(events) : undefined),
        onCaughtUp,
        onDropped: (reason) => {
          this.droppedAt = Date.now();
          this.onDropped(reason);
        },
        onResumed: () => {
          const afterMs = Date.now() - (this.droppedAt ?? Date.now());
          this.droppedAt = undefined;
          this.onResumed(afterMs);
        },
        onError: (error) => {
          this.failure = error;
          this.logger.error(`Stopped following the log: ${String(error)}`);
          reject(error);
        },
      },
    );
    return following;
  }

  private onEvents(events: RecordedEvent[]): void | Promise<void> {
    const handling = this.handle(events);
    if (!handling) return this.handled(events);
    return handling.then(() => this.handled(events));
  }
}
