import { Decider, DomainEvent } from '../domain/decider';
import {
  BatchAppendOutcome,
  ConcurrencyError,
  EventStore,
  ExpectedRevision,
  StreamAppend,
} from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { Actor, CommandContext, NewStreamEvents, metadataOf, toNewEvents } from './actor';
import { ActorCache } from './actor-cache';
import { SendOptions, SendResult, decideNew, withResults } from './stream-commands';

/** Commands decided in one pass of `sendBatch` at most; a larger batch goes on in further passes. */
const MAX_PASS = 10_000;

/** One command of a batch (see ActorRegistry.sendBatch). */
export interface BatchCommand<C> {
  stream: string;
  command: C;
  context: CommandContext;
  /**
   * The stream as the caller knows it (its state after the event at `revision`), for an actor not in memory: it is
   * decided on without a read. Should the stream have moved on, the append conflicts and the command goes through
   * `send`, which reads it.
   */
  known?: { state: unknown; revision: bigint };
}

/** How one command of a batch went: what `send` would have answered, or what it would have thrown. */
export type BatchOutcome<S, E> = { ok: SendResult<S, E> } | { error: unknown };

/** A command the pass decided: what its actor and the streams it opened take once it is written. */
export interface Decided<E> {
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

/** How a command the pass leaves goes on its own: ActorRegistry.send. */
export type SendOne = <S, C, E extends DomainEvent>(
  stream: string,
  decider: Decider<S, C, E>,
  command: C,
  context: CommandContext,
  options: SendOptions<E>,
) => Promise<SendResult<S, E>>;

/** The batches of ActorRegistry.sendBatch: passes that decide many streams' commands and append them together. */
export class BatchSender {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly actors: ActorCache,
    /** How many idle actors the cache keeps (ActorOptions.cacheSize): a pass holds at most half of them. */
    private readonly cacheSize: number,
    private readonly sendOne: SendOne,
  ) {}

  /**
   * The most commands one pass holds: half the cache at most (its actors must stay the registry's own while it
   * runs, or a command sent meanwhile would find a fresh actor that does not wait for it), and MAX_PASS, which
   * bounds its memory and time.
   */
  get passSize(): number {
    return Math.max(1, Math.min(MAX_PASS, Math.floor(this.cacheSize / 2)));
  }

  /** See ActorRegistry.sendBatch. */
  async send<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    commands: Array<BatchCommand<C>>,
    { opens }: Pick<SendOptions<E>, 'opens'> = {},
  ): Promise<Array<BatchOutcome<S, E>>> {
    const most = this.passSize;
    if (commands.length > most) {
      const outcomes: Array<BatchOutcome<S, E>> = [];
      for (let from = 0; from < commands.length; from += most)
        outcomes.push(...(await this.send(decider, commands.slice(from, from + most), { opens })));
      return outcomes;
    }
    const actors = commands.map(({ stream, known }) => {
      const actor = this.actors.of(stream, decider);
      if (known) actor.adopt(known.state as S, known.revision);
      return actor;
    });
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
    try {
      settleWritten(decided, written, outcomes, oneByOne, this.actors);
    } finally {
      endHolds();
    }
    await Promise.all(
      oneByOne.map((index) => {
        const { stream, command, context } = commands[index];
        return this.sendOne(stream, decider, command, context, { opens }).then(
          (ok) => (outcomes[index] = { ok }),
          (error: unknown) => (outcomes[index] = { error }),
        );
      }),
    );
    return outcomes;
  }

  /**
   * The pass of `send`: each command decided on its held actor's state, yielded as its append as the store
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
      let made: CommandAppend;
      try {
        events = decider.decide(held.state, command, now);
        if (!events.length) {
          outcomes[index] = { ok: { state: actor.release(), events } };
          continue;
        }
        made = commandAppend({ stream, context, events, revision: held.revision }, multiStream && opens, now, this.ids);
        if (made.openers && sameItems(made.openers, sharedOpeners)) made.openers = sharedOpeners;
        else if (made.openers) sharedOpeners = made.openers;
      } catch (error) {
        actor.release();
        outcomes[index] = { error };
        continue;
      }
      const { append, openers, opened } = made;
      decided.push({ index, actor: actor as Actor<unknown, unknown, DomainEvent>, events, openers, opened });
      yield append;
    }
  }
}

/** What one decided command appends: its events, and with `opens` the streams they open, in the same commit. */
export interface CommandAppend {
  append: StreamAppend[];
  openers?: Array<Decider<any, any, any>>;
  opened?: NewStreamEvents[];
}

export function commandAppend<E extends DomainEvent>(
  decided: { stream: string; context: CommandContext; events: E[]; revision: ExpectedRevision },
  opens: SendOptions<E>['opens'] | false | undefined,
  now: Date,
  ids: IdGenerator,
): CommandAppend {
  const { stream, context, events, revision } = decided;
  const metadata = metadataOf(context);
  const append: StreamAppend[] = [{ stream, events: toNewEvents(events, metadata, ids), expected: revision }];
  if (!opens) return { append };
  const opening = opens(events);
  const opened = decideNew(opening, now);
  for (const part of opened)
    append.push({ stream: part.stream, events: toNewEvents(part.events, metadata, ids), expected: 'no_stream' });
  return { append, openers: opening.map((command) => command.decider), opened };
}

/**
 * Hands each decided command's actor what its append wrote (or, should it have failed, has it read its stream
 * again), fills in its outcome, and lists in `oneByOne` those whose append conflicted. Never an actor left held.
 */
export function settleWritten<E extends DomainEvent>(
  decided: Array<Decided<E>>,
  written: BatchAppendOutcome[],
  outcomes: Array<BatchOutcome<any, E>>,
  oneByOne: number[],
  actors: ActorCache,
): void {
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
      const state = actor.release({ events, revision: nextRevision }) as unknown;
      released++;
      const newStreams = openers ? actors.adoptNew(openers, withResults(opened!, theirs)) : undefined;
      outcomes[index] = { ok: { state, events, position, opened: newStreams } };
    }
  } finally {
    // Should anything above throw, the rest read their streams again.
    for (const { actor } of decided.slice(released)) actor.release(undefined, true);
  }
}

function sameItems<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
