import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Decider, DomainEvent } from '../domain/decider';
import { AppendResult, ConcurrencyError, EVENT_STORE, EventStore } from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { Actor, ActorDeps, CommandContext, CommandResult, NewStreamEvents, metadataOf, toNewEvents } from './actor';
import { SnapshotWriter } from './snapshot-writer';

/** A command to an existing stream, and the commands opening new streams in its commit (`sendWithNewStreams`). */
export interface CommandWithNewStreams<S, C, E extends DomainEvent> {
  stream: string;
  decider: Decider<S, C, E>;
  command: C;
  /** The commands for the new streams, made from the events the command decided. */
  newStreams(events: E[]): Array<NewStreamCommand<any, any, any>>;
}

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
    return this.actorOf(stream, decider, options.cache).send(command, context, options.newStream);
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
    const decided = decideNew(commands, this.clock.now());
    const metadata = metadataOf(context);
    let appended;
    try {
      appended = await this.store.appendMultiple(
        decided.map(({ stream, events }) => ({
          stream,
          expected: 'no_stream' as const,
          events: toNewEvents(events, metadata, this.ids),
        })),
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) return undefined;
      throw error;
    }
    return this.adoptNew(
      commands,
      decided.map((part, i) => ({ ...part, ...appended[i] })),
    );
  }

  /**
   * A command to a stream's actor (an existing stream, with its expected revision), and the new streams it opens,
   * decided from its events on their initial states, in one commit, all or nothing. A conflict on the actor's
   * stream reloads and decides again (a bounded number of times, as `send`). `opened` is undefined when the store
   * cannot append to several streams at once (EventStoreDB) or a new stream exists after all: the command's events
   * were then written alone, and the caller opens the new streams step by step. A refusal throws, as `send` does.
   * `cache: false` keeps no actor for the new streams (they take the state otherwise).
   */
  sendWithNewStreams<S, C, E extends DomainEvent>(
    { stream, decider, command, newStreams }: CommandWithNewStreams<S, C, E>,
    context: CommandContext,
    options: { cache?: boolean } = {},
  ): Promise<{ result: CommandResult<S, E>; opened?: Array<CommandResult<unknown, DomainEvent>> }> {
    let commands: Array<NewStreamCommand<any, any, any>> = [];
    return this.actorOf(stream, decider)
      .sendWithNewStreams(command, context, (events, now) => decideNew((commands = newStreams(events)), now))
      .then(({ newStreams: written, ...result }) => ({
        result,
        opened: written && this.adoptNew(commands, written, options.cache),
      }));
  }

  /** An actor of its own for a caller that keeps it while it works on one stream (a run being executed). */
  detached<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    return this.newActor(stream, decider);
  }

  read<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    options: { cache?: boolean } = {},
  ): Promise<S> {
    return this.actorOf(stream, decider, options.cache).read();
  }

  get size(): number {
    return this.actors.size;
  }

  /** The new streams' states, taken by their actors (kept only when `cache` is not false, or already there). */
  private adoptNew(
    commands: Array<NewStreamCommand<any, any, any>>,
    written: Array<NewStreamEvents & AppendResult>,
    cache = true,
  ): Array<CommandResult<unknown, DomainEvent>> {
    return written.map(({ stream, events, nextRevision, position }, i) => {
      const { decider } = commands[i];
      const state = events.reduce(decider.evolve, decider.initialState);
      if ((cache && decider.cacheActors !== false) || this.actors.has(stream))
        this.actorFor(stream, decider).adopt(state, nextRevision);
      return { state, events, position };
    });
  }

  /**
   * `cache: false` (a stream used a few times within moments, such as a run's), or a decider that declares
   * `cacheActors: false`: an actor of its own, unless one is cached already; cached, it would only push busy ones
   * out of the cache and hold memory after the stream is done.
   */
  private actorOf<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    cache = true,
  ): Actor<S, C, E> {
    const keep = cache && decider.cacheActors !== false;
    return !keep && !this.actors.has(stream) ? this.newActor(stream, decider) : this.actorFor(stream, decider);
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

/** Each command decided on its stream's initial state. */
function decideNew(commands: Array<NewStreamCommand<any, any, any>>, now: Date): NewStreamEvents[] {
  return commands.map(({ stream, decider, command }) => ({
    stream,
    events: decider.decide(decider.initialState, command, now),
  }));
}
