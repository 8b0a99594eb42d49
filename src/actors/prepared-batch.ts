import { Decider, DomainEvent } from '../domain/decider';
import {
  BatchAppendOutcome,
  EventStore,
  ExpectedRevision,
  PreparedAppends,
  StreamAppend,
} from '../event-store/event-store';
import { IdGenerator } from '../shared/ids';
import { Actor } from './actor';
import { ActorCache } from './actor-cache';
import { BatchCommand, BatchOutcome, BatchSender, Decided, commandAppend, settleWritten } from './batch-sender';
import { SendOptions } from './stream-commands';

/** Commands prepared between two turns of the event loop at most: preparing never holds the service up for long. */
const CHUNK = 1_000;

/** A command decided ahead, on its stream's state at `revision`: it goes as prepared only if that is still so. */
interface ReadyCommand<E> extends Decided<E> {
  state: unknown;
  revision: ExpectedRevision;
}

/**
 * Commands decided, and their appends encoded, ahead of the moment they are due (ActorRegistry.prepareBatch):
 * what a tick appends is known before it, so that when it comes only the commit remains.
 */
export class PreparedBatch<S, C, E extends DomainEvent> {
  sent = false;

  constructor(
    readonly decider: Decider<S, C, E>,
    readonly commands: Array<BatchCommand<C>>,
    readonly opens: SendOptions<E>['opens'],
    /** The commands decided ahead, in order (the others are decided when they are sent). */
    readonly ready: Array<ReadyCommand<E>>,
    /** Their appends as the store prepared them (EventStore.prepareBatch), or as they are for a store without it. */
    readonly appends: PreparedAppends | StreamAppend[][],
  ) {}
}

/** A run of a batch's ready commands being sent, with what is wanted of the batch and where its outcomes go. */
interface Part<S, C, E extends DomainEvent> {
  batch: PreparedBatch<S, C, E>;
  from: number;
  to: number;
  want: Uint8Array;
  outcomes: Array<BatchOutcome<S, E>>;
}

/** Prepares batches ahead, and sends them when they are due (see ActorRegistry.prepareBatch). */
export class PreparedBatches {
  constructor(
    private readonly store: EventStore,
    private readonly ids: IdGenerator,
    private readonly actors: ActorCache,
    private readonly batches: BatchSender,
  ) {}

  async prepare<S, C, E extends DomainEvent>(
    decider: Decider<S, C, E>,
    commands: Array<BatchCommand<C>>,
    opens: SendOptions<E>['opens'],
    now: Date,
  ): Promise<PreparedBatch<S, C, E>> {
    const opensHere = !!this.store.appendMultiple && opens;
    const prepares = !!(this.store.prepareBatch && this.store.appendPrepared);
    const ready: Array<ReadyCommand<E>> = [];
    let prepared: PreparedAppends | undefined;
    const raw: StreamAppend[][] = [];
    for (let from = 0; from < commands.length; from += CHUNK) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      const actors = commands.slice(from, from + CHUNK).map(({ stream, known }) => {
        const actor = this.actors.of(stream, decider);
        if (known) actor.adopt(known.state as S, known.revision);
        return actor;
      });
      const cold = actors.filter((actor) => actor.idle && !actor.inMemory);
      if (cold.length) await Promise.all(cold.map((actor) => actor.read().catch(() => undefined)));
      const appends: StreamAppend[][] = [];
      actors.forEach((actor, i) => {
        const seen = actor.peek();
        if (!seen) return;
        const index = from + i;
        const { stream, command, context } = commands[index];
        try {
          const events = decider.decide(seen.state, command, now);
          if (!events.length) return;
          const { append, openers, opened } = commandAppend(
            { stream, context, events, revision: seen.revision },
            opensHere,
            now,
            this.ids,
          );
          const held = actor as Actor<unknown, unknown, DomainEvent>;
          ready.push({ index, actor: held, events, openers, opened, state: seen.state, revision: seen.revision });
          appends.push(append);
        } catch {
          // Refused on the state of now: decided again, and answered, when the batch is sent.
        }
      });
      if (prepares) prepared = this.store.prepareBatch!(appends, prepared);
      else raw.push(...appends);
    }
    return new PreparedBatch(decider, commands, opens, ready, prepared ?? raw);
  }

  /**
   * Sends the commands of each batch at its `wanted` (indexes into its commands), all of one decider. Those decided
   * ahead whose stream is still at the revision they were decided on go as prepared, together, in passes of at most
   * a pass's size; the others (not decided ahead, moved on since, or whose append conflicted) go through one pass of
   * their own, decided now. Outcomes per batch, in `wanted` order.
   */
  async send<S, C, E extends DomainEvent>(
    sends: Array<{ batch: PreparedBatch<S, C, E>; wanted: number[] }>,
  ): Promise<Array<Array<BatchOutcome<S, E>>>> {
    if (!sends.length) return [];
    for (const { batch } of sends) {
      if (batch.sent) throw new Error('A prepared batch is sent once');
      if (batch.decider !== sends[0].batch.decider) throw new Error('Prepared batches sent together share a decider');
      batch.sent = true;
    }
    const outcomes = sends.map(({ batch }) => new Array<BatchOutcome<S, E>>(batch.commands.length));
    const most = this.batches.passSize;
    let pass: Array<Part<S, C, E>> = [];
    let size = 0;
    for (const [i, { batch, wanted }] of sends.entries()) {
      const want = new Uint8Array(batch.commands.length);
      for (const index of wanted) want[index] = 1;
      for (let from = 0; from < batch.ready.length;) {
        const to = Math.min(batch.ready.length, from + most - size);
        pass.push({ batch, from, to, want, outcomes: outcomes[i] });
        size += to - from;
        from = to;
        if (size === most) {
          await this.sendPass(pass);
          pass = [];
          size = 0;
        }
      }
    }
    if (pass.length) await this.sendPass(pass);
    const rest = sends.flatMap(({ wanted }, i) =>
      wanted.filter((index) => !outcomes[i][index]).map((index) => [i, index]),
    );
    if (rest.length) {
      const { decider, opens } = sends[0].batch;
      const commands = rest.map(([i, index]) => sends[i].batch.commands[index]);
      const theirs = await this.batches.send(decider, commands, { opens });
      rest.forEach(([i, index], k) => (outcomes[i][index] = theirs[k]));
    }
    return sends.map(({ wanted }, i) => wanted.map((index) => outcomes[i][index]));
  }

  /**
   * One pass of prepared commands: those whose stream is still at the revision they were decided on are held,
   * committed together, then released. An actor let go of since (the cache was full) takes the state they were
   * decided on again, as a command `known` to sendBatch does: should the stream have moved on, the append conflicts.
   */
  private async sendPass<S, C, E extends DomainEvent>(parts: Array<Part<S, C, E>>): Promise<void> {
    let endHolds!: () => void;
    const holdsEnded = new Promise<void>((resolve) => (endHolds = resolve));
    const decided: Array<Decided<E>> = [];
    /** Where each decided command's outcome goes: its batch's outcomes, at its index there. */
    const places: Array<[Array<BatchOutcome<S, E>>, number]> = [];
    const prepared = parts.map(({ batch, from, to, want, outcomes }) => {
      const keep = new Array<boolean>(batch.ready.length).fill(false);
      for (let r = from; r < to; r++) {
        const command = batch.ready[r];
        if (!want[command.index]) continue;
        const actor = this.actors.of(batch.commands[command.index].stream, batch.decider);
        if (actor !== command.actor && typeof command.revision === 'bigint')
          actor.adopt(command.state as S, command.revision);
        const held = actor.hold(holdsEnded);
        if (held?.revision === command.revision) {
          keep[r] = true;
          places.push([outcomes, command.index]);
          decided.push({ ...command, index: decided.length, actor: actor as Actor<unknown, unknown, DomainEvent> });
        } else if (held) actor.release();
      }
      return { appends: batch.appends, keep };
    });
    let written: BatchAppendOutcome[];
    try {
      written = decided.length ? await this.commit(prepared) : [];
    } catch (error) {
      written = decided.map((): BatchAppendOutcome => ({ error }));
    }
    const settled = new Array<BatchOutcome<S, E>>(decided.length);
    try {
      settleWritten(decided, written, settled, [], this.actors);
    } finally {
      endHolds();
    }
    // Conflicts have no outcome yet: they go through the pass decided now.
    settled.forEach((outcome, k) => (places[k][0][places[k][1]] = outcome));
  }

  /** A batch's appends were prepared by the store, or (a store that cannot prepare) are the appends themselves. */
  private commit(prepared: Array<{ appends: PreparedAppends | StreamAppend[][]; keep: boolean[] }>) {
    if (!Array.isArray(prepared[0].appends))
      return this.store.appendPrepared!(prepared as Array<{ appends: PreparedAppends; keep: boolean[] }>);
    const appends: StreamAppend[][] = [];
    for (const { appends: all, keep } of prepared)
      (all as StreamAppend[][]).forEach((append, i) => keep[i] && appends.push(append));
    return this.store.appendBatch(appends, appends.length);
  }
}
