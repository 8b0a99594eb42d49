import { Inject, Injectable } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { CHECKPOINT_STORE, CheckpointStore } from '../consumers/checkpoint-store';
import { CheckpointedConsumer } from '../consumers/checkpointed-consumer';
import { EVENT_STORE, EventFilter, EventStore, RecordedEvent } from '../event-store/event-store';
import { AppliedEvents } from './applied-events';
import { Projection } from './projection';
import { READ_DATABASE, startCatchUp } from './read-database';

/** Events per batch; each batch commits in one transaction with the checkpoints. */
const BATCH_SIZE = 1000;

/**
 * Feeds the log to every projection, each from its own checkpoint and with only the event types it names (any
 * other would cost each projection a look at every event of the live log). A batch of events and the projections'
 * checkpoints commit in one transaction, so a crash never half-applies a batch and replay is idempotent; then the
 * batch goes to the after-commit bus (AppliedEvents), whole.
 */
@Injectable()
export class ProjectionRunner extends CheckpointedConsumer {
  protected readonly name = 'projections';
  private readonly projections: Projection[] = [];
  /** The event types of each projection that names them: it is handed those only. */
  private readonly types = new Map<Projection, ReadonlySet<string>>();
  /** Each projection's checkpoint: the last event it has applied. */
  private readonly positions = new Map<string, bigint>();
  private applyBatch!: (events: RecordedEvent[]) => void;
  private started?: Promise<void>;
  /** Ends the fast, unsynced writes of the catch-up at start (see `startCatchUp`). */
  private endCatchUp?: () => void;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(CHECKPOINT_STORE) checkpoints: CheckpointStore,
    @Inject(READ_DATABASE) private readonly db: Database.Database,
    private readonly applied: AppliedEvents,
  ) {
    super(store, checkpoints);
  }

  /** Every event up to here is in the read models. */
  get position(): bigint {
    return this.applied.position;
  }

  /** Projections register while the modules initialise, before `start`. */
  register(projection: Projection): void {
    this.projections.push(projection);
    if (projection.eventTypes) this.types.set(projection, new Set(projection.eventTypes));
  }

  /** Resolves once the read models have caught up with the log. */
  start(): Promise<void> {
    this.applyBatch = this.db.transaction((events: RecordedEvent[]) => {
      const first = events[0].position;
      for (const projection of this.projections) {
        const checkpoint = this.positions.get(projection.name)!;
        const types = this.types.get(projection);
        const mine = events.filter(
          (event) => (first > checkpoint || event.position > checkpoint) && (!types || types.has(event.type)),
        );
        if (mine.length > 0) applyTo(projection, mine);
      }
      this.handled(events);
    });
    this.endCatchUp = startCatchUp(this.db);
    // Catching up, only the events the projections use; then every event, as the bus's listeners expect them all.
    const following = this.follow({ batchSize: BATCH_SIZE, catchUpFilter: this.catchUpFilter() });
    this.started = following.then(() => this.endCatchUp?.());
    return this.started;
  }

  /** The promise `start` returned; fails at once when `start` was not called yet, rather than waiting forever. */
  whenCaughtUp(): Promise<void> {
    return this.started ?? Promise.reject(new Error('The read models are not being kept up to date yet'));
  }

  async stop(): Promise<void> {
    await this.stopFollowing();
    this.endCatchUp?.();
  }

  protected handle(events: RecordedEvent[]): void {
    this.applyBatch(events);
    this.applied.applied(events);
  }

  /** The runner starts from the projection furthest behind. */
  protected override loadCheckpoint(): bigint {
    for (const { name } of this.projections) this.positions.set(name, this.checkpoints.load(name));
    const positions = [...this.positions.values()];
    const start = positions.length ? positions.reduce((a, b) => (a < b ? a : b)) : 0n;
    this.applied.startAt(start);
    return start;
  }

  /** Inside the batch's transaction: every projection is now at `position`. */
  protected override saveCheckpoint(position: bigint): void {
    for (const name of this.positions.keys()) {
      this.checkpoints.save(name, position);
      this.positions.set(name, position);
    }
  }

  protected override onDropped(reason: unknown): void {
    this.logger.warn(
      `Read models lost the event store's subscription at position ${this.position}: ${describe(reason)}; reconnecting`,
    );
  }

  protected override onResumed(afterMs: number): void {
    this.logger.log(
      `Read models resumed the event store's subscription from position ${this.position} after ${afterMs} ms`,
    );
  }

  /** Every event type the projections use, when each of them names its types. */
  private catchUpFilter(): EventFilter | undefined {
    if (this.projections.some((projection) => !projection.eventTypes)) return undefined;
    return { eventTypes: [...new Set(this.projections.flatMap((projection) => projection.eventTypes!))] };
  }
}

function applyTo(projection: Projection, events: RecordedEvent[]): void {
  if (projection.applyBatch) projection.applyBatch(events);
  else for (const event of events) projection.apply(event);
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
