import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { DEFAULT_SNAPSHOT_EVERY } from '../config/service-settings';
import { Decider, DomainEvent } from '../domain/decider';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { runIn } from '../shared/trace-context';
import { Actor, ActorDeps, CommandContext, CommandResult, metadataOf, toNewEvents } from './actor';
import { ActorCache } from './actor-cache';
import { BatchCommand, BatchOutcome, BatchSender } from './batch-sender';
import { PreparedBatch, PreparedBatches } from './prepared-batch';
import { SnapshotWriter } from './snapshot-writer';
import { stateAtVersion } from './state-at-version';
import type { Versioned } from '../domain/definition';
import { SendOptions, SendResult, StreamCommand, decideNew, withResults } from './stream-commands';

export const ACTOR_OPTIONS = Symbol('ActorOptions');

/** Enough for two instances racing on one busy stream; each retry first waits a random, growing moment. */
export const DEFAULT_MAX_ATTEMPTS = 10;

export interface ActorOptions {
  /** How many idle actors keep their state in memory; the least recently used are dropped first. */
  cacheSize: number;
  /** Attempts per command when other writers change the stream concurrently. */
  maxAttempts: number;
  /** A stream's snapshot is written once its state is this many events past the last one; 0: no snapshots. */
  snapshotEvery?: number;
}

/**
 * The way in to the actors: one per stream in this process (kept in an ActorCache), commands sent to one stream,
 * to new streams together, or to many streams in batches (BatchSender).
 */
@Injectable()
export class ActorRegistry implements BeforeApplicationShutdown {
  private readonly actors: ActorCache;
  private readonly batches: BatchSender;
  private readonly prepared: PreparedBatches;
  private readonly deps: ActorDeps;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(ACTOR_OPTIONS) options: ActorOptions,
  ) {
    const every = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
    this.deps = {
      store,
      clock,
      ids,
      maxAttempts: options.maxAttempts,
      snapshots: every > 0 ? { writer: new SnapshotWriter(store), every } : undefined,
    };
    this.actors = new ActorCache(options.cacheSize, this.deps);
    // A command a batch cannot take in its pass goes through `send`, as if it had been sent alone.
    this.batches = new BatchSender(store, clock, ids, this.actors, options.cacheSize, (...args) => this.send(...args));
    this.prepared = new PreparedBatches(store, ids, this.actors, this.batches);
  }

  /** Snapshots being written finish before the store closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.snapshotsSettled();
  }

  /** Resolves once the snapshots started so far are written (or failed). */
  /** Lets go of what the actors of these streams hold in memory (their subject was forgotten). */
  drop(streams: Iterable<string>): void {
    this.actors.drop(streams);
  }

  snapshotsSettled(): Promise<void> {
    return this.deps.snapshots?.writer.settled() ?? Promise.resolve();
  }

  /** Whether the store writes several streams in one commit, so that `opens` opens them with the command. */
  get commitsSeveralStreams(): boolean {
    return this.store.appendMultiple !== undefined;
  }

  /** A definition's stream as it was at `version` (see stateAtVersion): 404 when it has no such version. */
  atVersion<S extends Versioned | null, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    version: number,
    what: string,
  ): Promise<NonNullable<S>> {
    return stateAtVersion(this.store, stream, decider, version, what);
  }

  /** The stream's actor: shared, or the caller's own under `cacheActors: false` (see ActorCache.of). */
  of<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    return this.actors.of(stream, decider);
  }

  /**
   * A command to its stream's actor. With `opens`, the new streams it opens (decided from its events on their
   * initial states) go in the same commit, all or nothing, where the store can; a conflict on the actor's stream
   * reloads and decides again. `opened` is then undefined when the store cannot append to several streams at once
   * (EventStoreDB) or a new stream exists after all: the command's events were written alone, and the caller opens
   * the new streams step by step. A command the domain refuses throws.
   */
  send<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    command: C,
    context: CommandContext,
    options: SendOptions<E> = {},
  ): Promise<SendResult<S, E>> {
    return this.sendThrough(this.of(stream, decider), command, context, options);
  }

  /** As `send`, through an actor the caller holds (an executing run's own, whose runs' actors are not cached). */
  sendThrough<S, C, E extends DomainEvent>(
    actor: Actor<S, C, E>,
    command: C,
    context: CommandContext,
    { newStream, opens }: SendOptions<E> = {},
  ): Promise<SendResult<S, E>> {
    if (!opens) return actor.send(command, context, { newStream });
    let commands: Array<StreamCommand<any, any, any>> = [];
    const newStreams = (events: E[], now: Date) => decideNew((commands = opens(events)), now);
    return actor.send(command, context, { newStream, newStreams }).then(({ newStreams: written, ...result }) => ({
      ...result,
      opened:
        written &&
        this.actors.adoptNew(
          commands.map((command) => command.decider),
          written,
        ),
    }));
  }

  /**
   * Commands that each open a new stream, decided on their streams' initial states and appended in one commit,
   * all or nothing. Undefined when the store cannot append to several streams at once (EventStoreDB) or a stream
   * exists after all: the caller then goes step by step. A command the domain refuses throws, as `send` does.
   */
  async sendToNewStreams(
    commands: Array<StreamCommand<any, any, any>>,
    context: CommandContext,
  ): Promise<Array<CommandResult<unknown, DomainEvent>> | undefined> {
    if (!this.store.appendMultiple) return undefined;
    const decided = decideNew(commands, this.clock.now());
    const metadata = metadataOf(context);
    const appends = decided.map(({ stream, events }) => ({
      stream,
      expected: 'no_stream' as const,
      events: toNewEvents(events, metadata, this.ids),
    }));
    const { store } = this;
    let appended;
    try {
      // The append's span is started at once, in the command's trace.
      appended = await runIn(context.trace, () => store.appendMultiple!(appends));
    } catch (error) {
      if (error instanceof ConcurrencyError) return undefined;
      throw error;
    }
    return this.actors.adoptNew(
      commands.map((command) => command.decider),
      withResults(decided, appended),
    );
  }

  /**
   * Commands to many streams of one decider (one per stream), decided in one pass and appended in one batch (one
   * commit on SQLite; a batch larger than a pass goes in several), `opens` as in `send`. Each is decided on its
   * actor's state in memory (actors not in memory load first), the actor held meanwhile, so commands sent to it wait
   * for the pass and then see its events. A command whose actor is busy, or whose append conflicts (another writer
   * got there first), goes through `send` afterwards: each command ends as `send` would have ended it. Outcomes in
   * the order given.
   */
  sendBatch<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    commands: Array<BatchCommand<C>>,
    { opens }: Pick<SendOptions<E>, 'opens'> = {},
  ): Promise<Array<BatchOutcome<S, E>>> {
    return this.batches.send(decider, commands, { opens });
  }

  /**
   * Decides commands of `sendBatch` ahead of the moment they are due, as of `now` (that moment), on their actors'
   * states now, and has the store encode their appends (PreparedBatches): a tick's triggers, prepared in the idle
   * time before it. Nothing is written or held until `sendPrepared`.
   */
  prepareBatch<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    commands: Array<BatchCommand<C>>,
    { opens }: Pick<SendOptions<E>, 'opens'>,
    now: Date,
  ): Promise<PreparedBatch<S, C, E>> {
    return this.prepared.prepare(decider, commands, opens, now);
  }

  /**
   * Sends prepared commands (those at each batch's `wanted`, indexes into its commands) as `sendBatch` would, in
   * the same commits: with what was decided ahead for each one whose stream has not moved on since; the others are
   * decided now. Outcomes per batch, in `wanted` order.
   */
  sendPrepared<S, C, E extends DomainEvent>(
    sends: Array<{ batch: PreparedBatch<S, C, E>; wanted: number[] }>,
  ): Promise<Array<Array<BatchOutcome<S, E>>>> {
    return this.prepared.send(sends);
  }

  get size(): number {
    return this.actors.size;
  }
}
