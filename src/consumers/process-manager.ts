import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { persistently } from '../actors/persistently';
import { DomainError } from '../domain/decider';
import { EVENT_STORE, EventStore, RecordedEvent } from '../event-store/event-store';
import { CHECKPOINT_STORE, CheckpointStore } from './checkpoint-store';
import { CheckpointedConsumer, FollowOptions } from './checkpointed-consumer';

/** The read models as a background worker sees them: it starts once they have caught up with the log. */
export interface ReadSide {
  /** Whether they have caught up (from then on they apply every event as it comes). */
  readonly caughtUp: boolean;
  whenCaughtUp(): Promise<void>;
}

/** The read side's token; the core module gives the projection runner for it. */
export const READ_SIDE = Symbol('ReadSide');

/** What every process manager is built from: the log, the checkpoints, and the read side it waits for. */
@Injectable()
export class ProcessManagerDeps {
  constructor(
    @Inject(EVENT_STORE) readonly store: EventStore,
    @Inject(CHECKPOINT_STORE) readonly checkpoints: CheckpointStore,
    @Inject(READ_SIDE) readonly readSide: ReadSide,
  ) {}
}

/**
 * A background worker of the service, with the one life cycle they all share. At start, if this instance runs it,
 * it waits until the read models have caught up with the log (it decides from them), begins its work and, if it
 * names the events it `follows`, follows the log from its checkpoint. On shutdown it takes up no new work, stops
 * following, and waits for the work still in flight. A worker that follows no events (a sweeper on a timer, the
 * scheduler on the read models' batches) has this life cycle all the same, and no checkpoint.
 */
export abstract class ProcessManager
  extends CheckpointedConsumer
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  protected readonly readSide: ReadSide;
  /** Whether this instance runs the worker (a setting may leave it to other instances). */
  private readonly enabled: boolean;
  /** The events handed to `handle` once it has begun; a worker without them does not follow the log. */
  protected readonly follows?: FollowOptions;
  /** Set once it has begun its work. */
  protected started = false;
  /** Set when shutdown begins: from then on no new work is taken up, and a failure is no longer tried again. */
  protected stopping = false;

  constructor({ store, checkpoints, readSide }: ProcessManagerDeps, enabled = true) {
    super(store, checkpoints);
    this.readSide = readSide;
    this.enabled = enabled;
  }

  /** Sets its work going (timers, listeners), once the read models have caught up and before it follows the log. */
  protected begin(): void | Promise<void> {}

  /** The first step of shutdown, while the log may still bring events: take up no new work. */
  protected stopTakingWork(): void {}

  /** The last step of shutdown, once no event comes any more: end or wait for the work still in flight. */
  protected async finishWork(): Promise<void> {}

  /** The events it `follows`, batch by batch; a worker that names none is never handed any. */
  protected handle(_events: RecordedEvent[]): void | Promise<void> {
    throw new Error(`${this.name} follows no events, and has no handling for them`);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.enabled) return;
    await this.readSide.whenCaughtUp();
    if (this.stopping) return;
    this.started = true;
    await this.begin();
    if (this.follows) void this.follow(this.follows);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.stopTakingWork();
    if (this.follows) await this.stopFollowing();
    await this.finishWork();
  }

  /**
   * Does `work` until it succeeds, waiting longer after each failure, so that an event is not dropped because the
   * store was away for a moment. A refusal of the domain is thrown at once; any failure is thrown once shutdown
   * has begun.
   */
  protected persistently<T>(work: () => Promise<T>, what: string): Promise<T> {
    return persistently(work, what, this.logger, () => this.stopping);
  }

  /**
   * Does what an event asks, persistently; a refusal of the domain means the event has nothing left to do (done
   * before, or by another instance) and is only logged. Any other failure is thrown.
   */
  protected async handleOnce(event: RecordedEvent, work: () => Promise<void>): Promise<void> {
    const what = `Handling ${event.type} at ${event.position}`;
    try {
      await this.persistently(work, what);
    } catch (error) {
      if (this.stopping || !(error instanceof DomainError)) throw error;
      this.logger.debug(`${what}: ${String(error)}`);
    }
  }
}
