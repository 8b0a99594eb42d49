import { Logger } from '@nestjs/common';
import { TraceContext, currentTraceparent, runIn, traceparentOf } from '../shared/trace-context';
import { Decider, DomainError, DomainEvent } from '../domain/decider';
import {
  AppendResult,
  ConcurrencyError,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
} from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';
import { SnapshotWriter } from './snapshot-writer';

export interface CommandContext {
  correlationId: string;
  causationId: string;
  /**
   * The trace the command belongs to (a request's command span, `traceOf(command)`): its events' `traceparent`
   * and its append's span come from it. Without it, from the active context (a run's or a tick's async scope).
   */
  trace?: TraceContext;
}

export interface CommandResult<State, Event> {
  state: State;
  events: Event[];
  /** Global position of the last appended event; undefined when the command changed nothing. */
  position?: bigint;
  /** The stream's revision after the append; undefined when the command changed nothing. */
  revision?: bigint;
}

/** Events for a stream that does not exist yet, to be written in the same commit as the actor's own. */
export interface NewStreamEvents {
  stream: string;
  events: DomainEvent[];
}

/**
 * New streams decided from the events the actor's command decided (and the same time): called again on each
 * attempt, so they always follow the events actually written.
 */
export type NewStreamsOf<Event> = (events: Event[], now: Date) => NewStreamEvents[];

/** What a command with new streams wrote: the new streams' results in order, or none when they were not written. */
export interface CommandWithNewStreamsResult<State, Event> extends CommandResult<State, Event> {
  newStreams?: Array<NewStreamEvents & AppendResult>;
}

export interface ActorSendOptions<Event> {
  /**
   * The caller expects the stream not to exist yet (it has just made its id): the actor skips reading it and
   * appends expecting no stream; should it exist after all, the conflict makes it read and decide again.
   */
  newStream?: boolean;
  /**
   * New streams decided from this command's events, written in the same commit, all or nothing, when the store
   * can (`appendMultiple`). Should a new stream exist after all, or the store have no `appendMultiple`, this
   * stream's events are written alone and the result has no `newStreams`: the caller opens them step by step.
   */
  newStreams?: NewStreamsOf<Event>;
}

export interface ActorDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  maxAttempts: number;
  /** Absent: snapshots are off (neither read nor written). */
  snapshots?: { writer: SnapshotWriter; every: number };
}

const logger = new Logger('Actor');
/** The mailbox of an actor with no work: created once, outside any request. */
const IDLE: Promise<unknown> = Promise.resolve();

/**
 * Owns one stream: runs its commands one at a time, keeps the state in memory, and appends with the
 * expected revision. When another writer got there first it reloads and decides again, a bounded number of times.
 * If its decider declares a snapshot format, it loads from the stream's snapshot and the events after it, and has
 * a new snapshot written once its state has moved `snapshots.every` events past the last one.
 */
export class Actor<State, Command, Event extends DomainEvent> {
  private state: State;
  private revision: ExpectedRevision = 'no_stream';
  private loaded = false;
  private mailbox: Promise<unknown> = IDLE;
  private queued = 0;
  /** Revision of the last snapshot this actor restored or had written; undefined: none. */
  private snapshotRevision: bigint | undefined;
  /** False once a snapshot proved to be ahead of its stream: this actor then replays. */
  private trustSnapshots = true;
  /** The state comes from a snapshot whose revision the stream has not yet been seen to have. */
  private snapshotUnchecked = false;

  constructor(
    readonly stream: string,
    private readonly decider: Decider<State, Command, Event>,
    private readonly deps: ActorDeps,
  ) {
    this.state = decider.initialState;
  }

  get idle(): boolean {
    return this.queued === 0;
  }

  /** The stream's state is in memory (it may still have to catch up with what another instance wrote). */
  get inMemory(): boolean {
    return this.loaded;
  }

  /**
   * For a pass deciding many streams' commands outside their actors (ActorRegistry.sendBatch): the state to decide
   * on, and the actor held, so that commands sent to it wait until `release`, then `released`. Undefined: busy or
   * not loaded; the caller sends instead.
   */
  hold(released: Promise<void>): { state: State; revision: ExpectedRevision } | undefined {
    if (!this.idle || !this.loaded) return undefined;
    this.queued++;
    this.mailbox = released;
    return { state: this.state, revision: this.revision };
  }

  /**
   * What `hold` would give now, without holding (the state may be behind the stream): for a command decided ahead
   * (a tick prepared before it), or a read that need not wait. Undefined while busy or not loaded.
   */
  peek(): { state: State; revision: ExpectedRevision } | undefined {
    return this.idle && this.loaded ? { state: this.state, revision: this.revision } : undefined;
  }

  /**
   * Ends a hold: with the events the pass wrote and the stream's revision after them; or without, when it wrote
   * nothing; `reload`: its append conflicted or its outcome is unknown, so the next command reads the stream first.
   */
  release(written?: { events: Event[]; revision: bigint }, reload = false): State {
    if (written) {
      this.state = written.events.reduce(this.decider.evolve, this.state);
      this.revision = written.revision;
      this.snapshotIfDue();
    } else if (reload) {
      this.loaded = false;
    }
    this.settled();
    return this.state;
  }

  /** Decides the command on the stream's state and appends its events (see ActorSendOptions). */
  send(
    command: Command,
    context: CommandContext,
    { newStream, newStreams }: ActorSendOptions<Event> = {},
  ): Promise<CommandWithNewStreamsResult<State, Event>> {
    if (newStream && !this.loaded && this.idle) this.loaded = true;
    return this.enqueue(() => this.handle(command, context, this.deps.store.appendMultiple && newStreams));
  }

  /** Takes the state of a stream its caller has just created (in one commit with others), unless it moved on. */
  adopt(state: State, revision: bigint): void {
    if (this.idle && (!this.loaded || this.revision === 'no_stream')) {
      this.state = state;
      this.revision = revision;
      this.loaded = true;
    }
  }

  /**
   * The stream's current state: the cached state caught up with what the stream gained since (one read of the
   * events after the cached revision), so a change written by another instance is never missed.
   */
  read(): Promise<State> {
    return this.enqueue(async () => {
      await this.load();
      return this.state;
    });
  }

  /** Runs `work` once the work queued before it has settled: at once when the actor is idle. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queued++ === 0 ? work() : this.mailbox.then(work);
    // Registered before the caller's own reactions: the actor is idle again when the caller hears the result.
    this.mailbox = result.then(this.settled, this.settled);
    return result;
  }

  private readonly settled = (): void => {
    // An idle actor keeps no promise of the request that used it last (which holds that request's context).
    if (--this.queued === 0) this.mailbox = IDLE;
  };

  private async handle(
    command: Command,
    context: CommandContext,
    newStreamsOf?: NewStreamsOf<Event>,
  ): Promise<CommandWithNewStreamsResult<State, Event>> {
    for (let attempt = 1; ; attempt++) {
      if (!this.loaded) await this.load();
      const now = this.deps.clock.now();
      const events = this.decider.decide(this.state, command, now);
      if (events.length === 0) return { state: this.state, events };
      const newStreams = newStreamsOf?.(events, now) ?? [];
      try {
        const appended = await this.append(events, newStreams, context);
        this.state = events.reduce(this.decider.evolve, this.state);
        this.revision = appended[0].nextRevision;
        this.snapshotIfDue();
        const { position } = appended[0];
        const revision = this.revision;
        if (!newStreams.length) return { state: this.state, events, position, revision };
        const opened = newStreams.map(({ stream, events }, i) => ({ stream, events, ...appended[i + 1] }));
        return { state: this.state, events, position, revision, newStreams: opened };
      } catch (error) {
        // After a conflict, or an append whose outcome is unknown, read what the stream gained meanwhile.
        this.loaded = false;
        if (!(error instanceof ConcurrencyError)) throw error;
        if (error.stream !== this.stream) {
          // A new stream exists after all: nothing was written; this stream's events go alone.
          newStreamsOf = undefined;
          continue;
        }
        if (attempt >= this.deps.maxAttempts) {
          throw new DomainError('conflict', `${this.stream} is being changed by other requests; try again`);
        }
        // The first retry decides at once on the state just read; later ones wait, so writers stop colliding.
        if (attempt > 1) await backOff(attempt);
      }
    }
  }

  /** This stream's events with the expected revision, and the new streams' expecting none, in one commit. */
  private append(events: Event[], newStreams: NewStreamEvents[], context: CommandContext): Promise<AppendResult[]> {
    const metadata = metadataOf(context);
    const own = toNewEvents(events, metadata, this.deps.ids);
    const { store } = this.deps;
    // Each append's span starts at once, in the command's trace (`runIn`: no async scope is needed for that).
    if (!newStreams.length) {
      const appended = runIn(context.trace, () => store.append(this.stream, own, { expected: this.revision }));
      return appended.then((result) => [result]);
    }
    const appends = [
      { stream: this.stream, events: own, expected: this.revision },
      ...newStreams.map(({ stream, events }) => ({
        stream,
        events: toNewEvents(events, metadata, this.deps.ids),
        expected: 'no_stream' as const,
      })),
    ];
    return runIn(context.trace, () => store.appendMultiple!(appends));
  }

  /**
   * Reads the events after the cached revision and folds them into the state. The first time, that is after the
   * stream's snapshot if there is a usable one, else from revision 0.
   */
  private async load(): Promise<void> {
    if (this.revision === 'no_stream') this.snapshotUnchecked = await this.restoreSnapshot();
    const pageSize = 500;
    for (;;) {
      const next = this.revision === 'no_stream' ? 0n : (this.revision as bigint) + 1n;
      // After a snapshot the read starts at the snapshot's own revision: a stream without that event proves it wrong.
      const from = this.snapshotUnchecked ? next - 1n : next;
      const page = await this.deps.store.readStream(this.stream, { fromRevision: from, maxCount: pageSize });
      let events = page.events;
      if (this.snapshotUnchecked) {
        this.snapshotUnchecked = false;
        if (events[0]?.revision !== from) {
          this.forget(`its stream has no event at revision ${from}`);
          continue;
        }
        events = events.slice(1);
      }
      for (const event of events) {
        this.state = this.decider.evolve(this.state, { type: event.type, data: event.data } as Event);
        this.revision = event.revision;
      }
      if (page.events.length < pageSize) break;
    }
    this.loaded = true;
    this.snapshotIfDue();
  }

  /** Takes the state from the stream's snapshot, if it has one of the decider's version that reads back. */
  private async restoreSnapshot(): Promise<boolean> {
    const format = this.decider.snapshot;
    if (!format || !this.deps.snapshots || !this.trustSnapshots) return false;
    try {
      const snapshot = await this.deps.store.readSnapshot(this.stream);
      if (snapshot?.schemaVersion !== format.version) return false; // none, or of another version: replay
      this.state = format.fromJson(snapshot.state);
      this.revision = snapshot.revision;
      this.snapshotRevision = snapshot.revision;
      return true;
    } catch (error) {
      logger.warn(`Ignoring the snapshot of ${this.stream}, replaying the stream instead: ${String(error)}`);
      return false;
    }
  }

  /** Hands a snapshot of the current state to the writer once the state is `every` events past the last one. */
  private snapshotIfDue(): void {
    const { snapshots } = this.deps;
    const format = this.decider.snapshot;
    if (!snapshots || !format || typeof this.revision !== 'bigint') return;
    if (this.revision - (this.snapshotRevision ?? -1n) < BigInt(snapshots.every)) return;
    // States are never changed in place (evolve makes new ones), so this one may be written later.
    const { state, revision } = this;
    const take = () => ({
      revision,
      schemaVersion: format.version,
      state: format.toJson ? format.toJson(state) : state,
    });
    if (snapshots.writer.write(this.stream, take)) this.snapshotRevision = revision;
  }

  /** Drops the state restored from a snapshot that its stream contradicts; this actor replays from now on. */
  private forget(reason: string): void {
    logger.warn(`Ignoring the snapshot of ${this.stream}, replaying the stream instead: ${reason}`);
    this.state = this.decider.initialState;
    this.revision = 'no_stream';
    this.snapshotRevision = undefined;
    this.trustSnapshots = false;
  }
}

/** Domain events as the store takes them: each with a new id, and the command's metadata. */
export function toNewEvents(events: DomainEvent[], metadata: EventMetadata, ids: IdGenerator): NewEvent[] {
  return events.map((event) => ({
    id: ids.newEventId(),
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata,
  }));
}

/** The metadata of a command's events: one object for all of them, so the store may serialise it once. */
export function metadataOf({ correlationId, causationId, trace }: CommandContext): EventMetadata {
  const traceparent = trace ? traceparentOf(trace) : currentTraceparent();
  return traceparent
    ? { correlationId, causationId, schemaVersion: 1, traceparent }
    : { correlationId, causationId, schemaVersion: 1 };
}

/** A short random pause, growing with the attempt, so competing writers stop colliding in lockstep. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(2 ** attempt, 100);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
