import { Inject, Injectable, Logger } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { EVENT_STORE, EventFilter, EventStore, RecordedEvent, Subscription } from '../event-store/event-store';
import { AppliedEvents } from './applied-events';
import { Projection } from './projection';
import { READ_DATABASE, startCatchUp } from './read-database';

/** Events per batch; each batch commits in one transaction with the checkpoints. */
const BATCH_SIZE = 1000;

/**
 * Feeds the store's global subscription to every projection. Each batch of events and the projections'
 * checkpoints commit in one transaction, so a crash never half-applies a batch and replay is idempotent.
 */
@Injectable()
export class ProjectionRunner {
  private readonly logger = new Logger(ProjectionRunner.name);
  private readonly projections: Projection[] = [];
  private readonly checkpoints = new Map<string, bigint>();
  private subscription?: Subscription;
  private applyBatch!: (events: RecordedEvent[]) => void;
  private failure?: unknown;
  private started?: Promise<void>;
  /** Ends the fast, unsynced writes of the catch-up at start (see `startCatchUp`). */
  private endCatchUp?: () => void;
  /** Whether the read models have caught up with the log since the start. */
  caughtUp = false;
  private droppedAt?: number;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DATABASE) private readonly db: Database.Database,
    private readonly applied: AppliedEvents,
  ) {}

  /** Whether the projections have failed for good. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Whether the store's subscription is cut off (it reconnects by itself). */
  get dropped(): boolean {
    return this.droppedAt !== undefined;
  }

  /** Every event up to here is in the read models. */
  get position(): bigint {
    return this.applied.position;
  }

  /** Projections register while the modules initialise, before `start`. */
  register(projection: Projection): void {
    this.projections.push(projection);
  }

  /** Resolves once the read models have caught up with the log. */
  start(): Promise<void> {
    this.started = this.follow();
    return this.started;
  }

  /** The promise `start` returned; fails at once when `start` was not called yet, rather than waiting forever. */
  whenCaughtUp(): Promise<void> {
    return this.started ?? Promise.reject(new Error('The read models are not being kept up to date yet'));
  }

  private follow(): Promise<void> {
    const saveCheckpoint = this.db.prepare(
      'INSERT INTO projection_checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
    const loadCheckpoint = this.db.prepare<[string], { position: number }>(
      'SELECT position FROM projection_checkpoints WHERE name = ?',
    );
    for (const projection of this.projections) {
      this.checkpoints.set(projection.name, BigInt(loadCheckpoint.get(projection.name)?.position ?? 0));
    }
    this.applyBatch = this.db.transaction((events: RecordedEvent[]) => {
      const first = events[0].position;
      const last = events[events.length - 1].position;
      for (const projection of this.projections) {
        const checkpoint = this.checkpoints.get(projection.name)!;
        applyTo(projection, first > checkpoint ? events : events.filter((event) => event.position > checkpoint));
        saveCheckpoint.run(projection.name, Number(last));
      }
    });
    const positions = [...this.checkpoints.values()];
    this.applied.startAt(positions.length ? positions.reduce((a, b) => (a < b ? a : b)) : 0n);
    this.endCatchUp = startCatchUp(this.db);

    return new Promise((resolve, reject) => {
      const live = () =>
        this.subscribe(
          undefined,
          () => {
            this.endCatchUp?.();
            this.caughtUp = true;
            resolve();
          },
          reject,
        );
      const filter = this.catchUpFilter();
      if (!filter) return live();
      // Catching up, only the events the projections use; then every event, as the listeners expect them all.
      let switched = false;
      const catchingUp = this.subscribe(
        filter,
        () => {
          if (switched) return;
          switched = true;
          // Deferred: a store may call this before `subscribe` has returned.
          queueMicrotask(() => {
            catchingUp.active = false;
            void catchingUp.subscription.stop();
            live();
          });
        },
        reject,
      );
    });
  }

  /** Every event type the projections use, when each of them names its types. */
  private catchUpFilter(): EventFilter | undefined {
    if (this.projections.some((projection) => !projection.eventTypes)) return undefined;
    return { eventTypes: [...new Set(this.projections.flatMap((projection) => projection.eventTypes!))] };
  }

  /** Follows the store from `position`; events come to `onEvents` while `active` holds. */
  private subscribe(
    filter: EventFilter | undefined,
    onCaughtUp: () => void,
    reject: (error: unknown) => void,
  ): { subscription: Subscription; active: boolean } {
    const following = { subscription: undefined as unknown as Subscription, active: true };
    following.subscription = this.subscription = this.store.subscribe(
      { after: this.position, filter, batchSize: BATCH_SIZE },
      {
        onEvents: (events) => {
          if (following.active) this.onEvents(events);
        },
        onCaughtUp,
        onDropped: (reason) => {
          this.droppedAt = Date.now();
          this.logger.warn(
            `Read models lost the event store's subscription at position ${this.position}: ${describe(reason)}; reconnecting`,
          );
        },
        onResumed: () => {
          const after = Date.now() - (this.droppedAt ?? Date.now());
          this.droppedAt = undefined;
          this.logger.log(
            `Read models resumed the event store's subscription from position ${this.position} after ${after} ms`,
          );
        },
        onError: (error) => {
          this.failure = error;
          this.logger.error(`Projections stopped: ${String(error)}`);
          reject(error);
        },
      },
    );
    return following;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.endCatchUp?.();
  }

  private onEvents(events: RecordedEvent[]): void {
    this.applyBatch(events);
    const position = events[events.length - 1].position;
    for (const name of this.checkpoints.keys()) this.checkpoints.set(name, position);
    this.applied.applied(events);
  }
}

function applyTo(projection: Projection, events: RecordedEvent[]): void {
  if (projection.applyBatch) projection.applyBatch(events);
  else for (const event of events) projection.apply(event);
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
