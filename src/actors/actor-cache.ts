import { Decider, DomainEvent } from '../domain/decider';
import { AppendResult } from '../event-store/event-store';
import { Actor, ActorDeps, CommandResult, NewStreamEvents } from './actor';

/** One actor per stream in this process, created on first use and dropped when idle and least recently used. */
export class ActorCache {
  private readonly actors = new Map<string, Actor<unknown, unknown, DomainEvent>>();

  constructor(
    /** How many idle actors keep their state in memory (ActorOptions.cacheSize). */
    private readonly cacheSize: number,
    private readonly deps: ActorDeps,
  ) {}

  /**
   * The stream's actor. A decider's actors are cached and shared, the least recently used idle ones dropped first,
   * unless it declares `cacheActors: false`: the caller then gets one of its own (unless one is cached already),
   * which it may hold while it works on the stream, and which no one else keeps.
   */
  of<S, C, E extends DomainEvent>(stream: string, decider: Decider<S, C, E>): Actor<S, C, E> {
    return decider.cacheActors === false && !this.actors.has(stream)
      ? this.newActor(stream, decider)
      : this.actorFor(stream, decider);
  }

  get size(): number {
    return this.actors.size;
  }

  /** Lets go of the idle actors of these streams: their next command reads the stream again from the store. */
  drop(streams: Iterable<string>): void {
    for (const stream of streams) if (this.actors.get(stream)?.idle) this.actors.delete(stream);
  }

  /** The new streams' states, taken by their actors (kept as their deciders say, or already there). */
  adoptNew(
    deciders: Array<Decider<any, any, any>>,
    written: Array<NewStreamEvents & AppendResult>,
  ): Array<CommandResult<unknown, DomainEvent>> {
    return written.map(({ stream, events, nextRevision, position }, i) => {
      const decider = deciders[i];
      const state = events.reduce(decider.evolve, decider.initialState);
      if (decider.cacheActors !== false || this.actors.has(stream))
        this.actorFor(stream, decider).adopt(state, nextRevision);
      return { state, events, position };
    });
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
    let excess = this.actors.size - this.cacheSize + 1;
    // Not even a look at the map below the limit: the first step of iterating a map skips the slots that its
    // re-insertions emptied, as many as there were since it last compacted, so each look would cost that much.
    if (excess <= 0) return;
    for (const [stream, actor] of this.actors) {
      if (excess <= 0) break;
      if (actor.idle) {
        this.actors.delete(stream);
        excess--;
      }
    }
  }
}
