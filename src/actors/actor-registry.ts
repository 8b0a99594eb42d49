import { Inject, Injectable } from '@nestjs/common';
import { Decider, DomainEvent } from '../domain/decider';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { Actor, CommandContext, CommandResult } from './actor';

export const ACTOR_OPTIONS = Symbol('ActorOptions');

/** Enough for two instances racing on one busy stream; each retry first waits a random, growing moment. */
export const DEFAULT_MAX_ATTEMPTS = 10;

export interface ActorOptions {
  /** How many idle actors keep their state in memory; the least recently used are dropped first. */
  cacheSize: number;
  /** Attempts per command when other writers change the stream concurrently. */
  maxAttempts: number;
}

/** One actor per stream in this process, created on first use and dropped when idle and least recently used. */
@Injectable()
export class ActorRegistry {
  private readonly actors = new Map<string, Actor<unknown, unknown, DomainEvent>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(ACTOR_OPTIONS) private readonly options: ActorOptions,
  ) {}

  send<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    command: C,
    context: CommandContext,
    options: { newStream?: boolean; cache?: boolean } = {},
  ): Promise<CommandResult<S, E>> {
    return this.actorOf(stream, decider, options.cache).send(command, context, options.newStream);
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

  /**
   * `cache: false` (a stream used a few times within moments, such as a run's): an actor of its own, unless one is
   * cached already; cached, it would only push busy ones out of the cache and hold memory after the stream is done.
   */
  private actorOf<S, C, E extends DomainEvent>(
    stream: string,
    decider: Decider<S, C, E>,
    cache = true,
  ): Actor<S, C, E> {
    return !cache && !this.actors.has(stream) ? this.newActor(stream, decider) : this.actorFor(stream, decider);
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
    return new Actor(stream, decider, {
      store: this.store,
      clock: this.clock,
      ids: this.ids,
      maxAttempts: this.options.maxAttempts,
    });
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
