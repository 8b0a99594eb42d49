import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { DEFAULT_SNAPSHOT_EVERY } from '../config/service-settings';
import { Decider, DomainEvent } from '../domain/decider';
import {
  AppendResult,
  BatchAppendOutcome,
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  StreamAppend,
} from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { Actor, ActorDeps, CommandContext, CommandResult, NewStreamEvents, metadataOf, toNewEvents } from './actor';
import { SnapshotWriter } from './snapshot-writer';
import { runIn } from '../shared/trace-context';

/** A command, the stream it goes to, and that stream's decider. */

/** Commands decided in one pass of `sendBatch` at most; a larger batch goes on in further passes. */
const MAX_PASS = 10_000;
export interface StreamCommand<S, C, E extends DomainEvent> {
  stream: string;
  decider: Decider<S, C, E>;
  command: C;
}

export interface SendOptions<E extends DomainEvent> {
  /** The caller has just made the stream's id: no read first (see ActorSendOptions). */
  newStream?: boolean;
  /** The streams this command opens, made from its events: written in its commit where the store can. */
  opens?(events: E[]): Array<StreamCommand<any, any, any>>;
}

/** A command's result; with `opens`, the opened streams' results, or undefined when they were not written. */
export interface SendResult<S, E> extends CommandResult<S, E> {
  opened?: Array<CommandResult<unknown, DomainEvent>>;
}

/** One command of a batch (see ActorRegistry.sendBatch). */
export interface BatchCommand<C> {
  stream: string;
  command: C;
  context: CommandContext;
}

/** How one command of a batch went: what `send` would have answered, or what it would have thrown. */
export type BatchOutcome<S, E> = { ok: SendResult<S, E> } | { error: unknown };

/** A command the pass decided: what its actor and the streams it opened take once it is written. */
interface Decided<E> {
  index: number;
  actor: Actor<unknown, unknown, DomainEvent>;
  events: E[];
  /** With `opens` on a store that opens streams in the same commit: the new streams' deciders and events. */
  openers?: Array<Decider<any, any, any>>;
  opened?: NewStreamEvents[];
}

/** What a pass of `sendBatch` works on, and what it finds. */
interface Pass<S, C, E extends DomainEvent> {
  decider: Decider<S, C, E>;
  commands: Array<BatchCommand<C>>;
  actors: Array<Actor<S, C, E>>;
  opens?: SendOptions<E>['opens'];
  outcomes: Array<BatchOutcome<S, E>>;
  holdsEnded: Promise<void>;
  /** How many commands the store has asked for so far. */
  reached: number;
  decided: Array<Decided<E>>;
  /** Commands left to `send` afterwards: their actor was busy or not in memory, or their append conflicted. */
  oneByOne: number[];
}

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
    { newStream, opens }: SendOptions<E> = {},
  ): Promise<SendResult<S, E>> {
    const actor = this.of(stream, decider);
    if (!opens) return actor.send(command, context, { newStream });
    let commands: Array<StreamCommand<any, any, any>> = [];
    const newStreams = (events: E[], now: Date) => decideNew((commands = opens(events)), now);
    return actor.send(command, context, { newStream, newStreams }).then(({ newStreams: written, ...result }) => ({
      ...result,
      opened:
        written &&
        this.adoptNew(
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
    return this.adoptNew(
      commands.map((command) => command.decider),
      withResults(decided, appended),
    );
  }

  /**
   * Commands to many streams of one decider (one per stream), decided in one pass and appended in one batch (one
   * commit on SQLite; a batch larger than a pass goes in several), `opens` as in `send`. Each is decided on its actor's state in memory (actors not in memory
   * load first), the actor held meanwhile, so commands sent to it wait for the pass and then see its events. A
   * command whose actor is busy, or whose append conflicts (another writer got there first), goes through `send`
   * afterwards: each command ends as `send` would have ended it. Outcomes in the order given.
   */
  async sendBatch<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    commands: Array<BatchCommand<C>>,
    { opens }: Pick<SendOptions<E>, 'opens'> = {},
  ): Promise<Array<BatchOutcome<S, E>>> {
    // A pass holds at most half the cache (its actors must stay the registry's own while it runs, or a command sent
    // meanwhile would find a fresh actor that does not wait for it), and MAX_PASS, which bounds its memory and time.
    const most = Math.max(1, Math.min(MAX_PASS, Math.floor(this.options.cacheSize / 2)));
    if (commands.length > most) {
      const outcomes: Array<BatchOutcome<S, E>> = [];
      for (let from = 0; from < commands.length; from += most)
        outcomes.push(...(await this.sendBatch(decider, commands.slice(from, from + most), { opens })));
      return outcomes;
    }
    const actors = commands.map(({ stream }) => this.of(stream, decider));
    const cold = actors.filter((actor) => actor.idle && !actor.inMemory);
    // A failed load leaves the actor out of memory: its command goes through `send`, which reports the failure.
    if (cold.length) await Promise.all(cold.map((actor) => actor.read().catch(() => undefined)));
    const outcomes = new Array<BatchOutcome<S, E>>(commands.length);
    let endHolds!: () => void;
    const holdsEnded = new Promise<void>((resolve) => (endHolds = resolve));
    const pass: Pass<S, C, E> = {
      decider,
      commands,
      actors,
      opens,
      outcomes,
      holdsEnded,
      reached: 0,
      decided: [],
      oneByOne: [],
    };
    const { decided, oneByOne } = pass;
    // The store takes each command's append as the pass decides it (and encodes it at once, on SQLite): what a
    // command appends is let go as soon as it is taken, and only what its actor needs afterwards stays.
    let written: BatchAppendOutcome[];
    try {
      written = await this.store.appendBatch(this.decidePass(pass), commands.length);
      for (let index = pass.reached; index < commands.length; index++) oneByOne.push(index);
    } catch (error) {
      // Also a store that throws rather than rejects leaves no actor held; the commands it did not take fail too.
      written = decided.map((): BatchAppendOutcome => ({ error }));
      for (let index = pass.reached; index < commands.length; index++) outcomes[index] = { error };
    }
    let released = 0;
    try {
      for (; released < decided.length;) {
        const { index, actor, events, openers, opened } = decided[released];
        const outcome = written[released];
        if ('error' in outcome) {
          actor.release(undefined, true);
          released++;
          if (outcome.error instanceof ConcurrencyError) oneByOne.push(index);
          else outcomes[index] = { error: outcome.error };
          continue;
        }
        const [{ nextRevision, position }, ...theirs] = outcome.ok;
        const state = actor.release({ events, revision: nextRevision }) as S;
        released++;
        const newStreams = openers ? this.adoptNew(openers, withResults(opened!, theirs)) : undefined;
        outcomes[index] = { ok: { state, events, position, opened: newStreams } };
      }
    } finally {
      // Never an actor left held: should anything above throw, the rest read their streams again.
      for (const { actor } of decided.slice(released)) actor.release(undefined, true);
      endHolds();
    }
    await Promise.all(
      oneByOne.map((index) => {
        const { stream, command, context } = commands[index];
        return this.send(stream, decider, command, context, { opens }).then(
          (ok) => (outcomes[index] = { ok }),
          (error: unknown) => (outcomes[index] = { error }),
        );
      }),
    );
    return outcomes;
  }

  /**
   * The pass of `sendBatch`: each command decided on its held actor's state, yielded as its append as the store
   * asks for it. A command whose actor is busy or not in memory is left to `send`; one the domain refuses, or that
   * decides nothing, is answered at once.
   */
  private *decidePass<S, C, E extends DomainEvent>(pass: Pass<S, C, E>): Generator<StreamAppend[]> {
    const { decider, commands, actors, opens, outcomes, holdsEnded, decided, oneByOne } = pass;
    const multiStream = !!this.store.appendMultiple;
    const now = this.clock.now();
    // The opened streams' deciders are the same for most commands: one array kept for all of them.
    let sharedOpeners: Array<Decider<any, any, any>> = [];
    for (let index = 0; index < commands.length; index++) {
      pass.reached = index + 1;
      const actor = actors[index];
      const held = actor.hold(holdsEnded);
      if (!held) {
        oneByOne.push(index);
        continue;
      }
      const { stream, command, context } = commands[index];
      let events: E[];
      let openers: Array<Decider<any, any, any>> | undefined;
      let opened: NewStreamEvents[] | undefined;
      let append: StreamAppend[];
      try {
        events = decider.decide(held.state, command, now);
        if (!events.length) {
          outcomes[index] = { ok: { state: actor.release(), events } };
          continue;
        }
        const metadata = metadataOf(context);
        append = [{ stream, events: toNewEvents(events, metadata, this.ids), expected: held.revision }];
        if (multiStream && opens) {
          const opening = opens(events);
          openers = opening.map((command) => command.decider);
          if (sameItems(openers, sharedOpeners)) openers = sharedOpeners;
          else sharedOpeners = openers;
          opened = decideNew(opening, now);
          for (const part of opened)
            append.push({
              stream: part.stream,
              events: toNewEvents(part.events, metadata, this.ids),
              expected: 'no_stream',
            });
        }
      } catch (error) {
        actor.release();
        outcomes[index] = { error };
        continue;
      }
      decided.push({ index, actor: actor as Actor<unknown, unknown, DomainEvent>, events, openers, opened });
      yield append;
    }
  }

  get size(): number {
    return this.actors.size;
  }

  /** The new streams' states, taken by their actors (kept as their deciders say, or already there). */
  private adoptNew(
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
    let excess = this.actors.size - this.options.cacheSize + 1;
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

/** Each command decided on its stream's initial state. */
function decideNew(commands: Array<StreamCommand<any, any, any>>, now: Date): NewStreamEvents[] {
  return commands.map(({ stream, decider, command }) => ({
    stream,
    events: decider.decide(decider.initialState, command, now),
  }));
}

function sameItems<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** New streams' events beside what their appends wrote. */
function withResults(parts: NewStreamEvents[], results: AppendResult[]): Array<NewStreamEvents & AppendResult> {
  return parts.map((part, i) => ({ ...part, ...results[i] }));
}
