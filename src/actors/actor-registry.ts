import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Decider, DomainEvent } from '../domain/decider';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { Actor, ActorDeps, CommandContext, CommandResult } from './actor';
import { SnapshotWriter } from './snapshot-writer';

/** A command for `sendToNewStreams`: its stream, the stream's decider, and the command. */
export interface NewStreamCommand<S, C, E extends DomainEvent> {
  stream: string;
  decider: Decider<S, C, E>;
  command: C;
}

export const ACTOR_OPTIONS = Symbol('ActorOptions');

/** Enough for two instances racing on one busy stream; each retry first waits a random, growing moment. */
export const DEFAULT_MAX_ATTEMPTS = 10;

/** A snapshot every 1,000 events: a load then reads at most that many events after it. */
export const DEFAULT_SNAPSHOT_EVERY = 1000;

export interface ActorOptions {
  /** How many idle actors keep their state in memory; the least recently used are dropped first. */
  cacheSize: number;
  /** Attempts per command when other writers change the stream concurrently. */
  maxAttempts: number;
  /** A stream's snapshot is written once its state is this many events past the last one; 0: no snapshots. */
  snapshotEvery?: number;
}

/** One actor per stream in this process, created on first use and dropped when idle and least recently used. */
@Injectable()
export class ActorRegistry implements BeforeApplicationShutdown {
  private readonly actors = new Map<string, Actor<unknown, unknown, DomainEvent>>();
  private readonly deps: ActorDeps;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(ACTOR_OPTIONS) private readonly options: ActorOptions,
  ) {
    const every = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
    this.deps = {
      store,
      clock,
      ids,
      maxAttempts: options.maxAttempts,
      snapshots: every > 0 ? { writer: new SnapshotWriter(store), every } : undefined,
    };
  }

  /** Snapshots being written finish before the store closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.snapshotsSettled();
  }

  /** Resolves once the snapshots started so far are written (or failed). */
  snapshotsSettled(): Promise<void> {
    return this.deps.snapshots?.writer.settled() ?? Promise.resolve();
  }

  send<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    command: C,
    context: CommandContext,
    options: { newStream?: boolean; cache?: boolean } = {},
  ): Promise<CommandResult<S, E>> {
    // `cache: false` (a stream written once, such as a new run): its actor would only push busy ones out of the cache.
    const actor =
      options.cache === false && !this.actors.has(stream)
        ? this.newActor(stream, decider)
        : this.actorFor(stream, decider);
    return actor.send(command, context, options.newStream);
  }

  /**
   * Commands that each open a new stream, decided on their streams' initial states and appended in one commit,
   * all or nothing. Undefined when the store cannot append to several streams at once (EventStoreDB) or a stream
   * exists after all: the caller then goes step by step. A command the domain refuses throws, as `send` does.
   */
  async sendToNewStreams(
    commands: Array<NewStreamCommand<any, any, any>>,
    context: CommandContext,
  ): Promise<Array<CommandResult<unknown, DomainEvent>> | undefined> {
    if (!this.store.appendMultiple) return undefined;
    const now = this.clock.now();
    const decided = commands.map(({ decider, command }) => decider.decide(decider.initialState, command, now));
    let appended;
    try {
      appended = await this.store.appendMultiple(
        commands.map(({ stream }, i) => ({
          stream,
          expected: 'no_stream' as const,
          events: decided[i].map((event: DomainEvent) => ({
            id: this.ids.newEventId(),
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata: { ...context, schemaVersion: 1 },
          })),
        })),
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) return undefined;
      throw error;
    }
    return commands.map(({ stream, decider }, i) => {
      const state = decided[i].reduce(decider.evolve, decider.initialState);
      this.actorFor(stream, decider).adopt(state, appended[i].nextRevision);
      return { state, events: decided[i], position: appended[i].position };
    });
  }

  /** An actor of its own for a caller that keeps it while it works on one stream (a run being executed). */
  detached<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    return this.newActor(stream, decider);
  }

  read<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Promise<S> {
    return this.actorFor(stream, decider).read();
  }

  get size(): number {
    return this.actors.size;
  }

  private actorFor<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    let actor = this.actors.get(stream) as Actor<S, C, E> | undefined;
    if (actor) {
      this.actors.delete(stream); // re-insert: Map order doubles as recency order
    } else {
      actor = this.newActor(stream, decider);
    }
    this.evictIdle();
    this.actors.set(stream, actor as Actor<unknown, unknown, DomainEvent>);
    return actor;
  }

  private newActor<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    return new Actor(stream, decider, this.deps);
  }

  private evictIdle(): void {
    let excess = this.actors.size - this.options.cacheSize + 1;
    for (const [stream, actor] of this.actors) {
      if (excess <= 0) break;
      if (actor.idle) {
        this.actors.delete(stream);
        excess--;
      }
    }
  }
}
