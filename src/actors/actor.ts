import { Decider, DomainError, DomainEvent } from '../domain/decider';
import { ConcurrencyError, EventStore, ExpectedRevision } from '../event-store/event-store';
import { Clock } from '../shared/clock';
import { IdGenerator } from '../shared/ids';

export interface CommandContext {
  correlationId: string;
  causationId: string;
}

export interface CommandResult<State, Event> {
  state: State;
  events: Event[];
  /** Global position of the last appended event; undefined when the command changed nothing. */
  position?: bigint;
}

export interface ActorDeps {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  maxAttempts: number;
}

/** The mailbox of an actor with no work: created once, outside any request. */
const IDLE: Promise<unknown> = Promise.resolve();

/**
 * Owns one stream: runs its commands one at a time, keeps the state in memory, and appends with the
 * expected revision. When another writer got there first it reloads and decides again, a bounded number of times.
 */
export class Actor<State, Command, Event extends DomainEvent> {
  private state: State;
  private revision: ExpectedRevision = 'no_stream';
  private loaded = false;
  private mailbox: Promise<unknown> = IDLE;
  private queued = 0;

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

  /**
   * `newStream`: the caller expects the stream not to exist yet (it has just made its id), so the actor skips
   * reading it and appends expecting no stream; should it exist after all, the conflict makes it read and decide again.
   */
  send(command: Command, context: CommandContext, newStream = false): Promise<CommandResult<State, Event>> {
    if (newStream && !this.loaded && this.idle) this.loaded = true;
    return this.enqueue(() => this.handle(command, context));
  }

  read(): Promise<State> {
    return this.enqueue(async () => {
      if (!this.loaded) await this.load();
      return this.state;
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.mailbox.then(work).finally(() => {
      // An idle actor keeps no promise of the request that used it last (which holds that request's context).
      if (--this.queued === 0) this.mailbox = IDLE;
    });
    this.mailbox = result.catch(() => undefined);
    return result;
  }

  private async handle(command: Command, context: CommandContext): Promise<CommandResult<State, Event>> {
    for (let attempt = 1; ; attempt++) {
      if (!this.loaded) await this.load();
      const events = this.decider.decide(this.state, command, this.deps.clock.now());
      if (events.length === 0) return { state: this.state, events };
      try {
        const appended = await this.deps.store.append(
          this.stream,
          events.map((event) => ({
            id: this.deps.ids.newEventId(),
            type: event.type,
            data: event.data as Record<string, unknown>,
            metadata: { ...context, schemaVersion: 1 },
          })),
          { expected: this.revision },
        );
        this.state = events.reduce(this.decider.evolve, this.state);
        this.revision = appended.nextRevision;
        return { state: this.state, events, position: appended.position };
      } catch (error) {
        // After a conflict, or an append whose outcome is unknown, read what the stream gained meanwhile.
        this.loaded = false;
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= this.deps.maxAttempts) {
          throw new DomainError('conflict', `${this.stream} is being changed by other requests; try again`);
        }
        await backOff(attempt);
      }
    }
  }

  /** Reads the events after the cached revision (all of them the first time) and folds them into the state. */
  private async load(): Promise<void> {
    const pageSize = 500;
    for (;;) {
      const from = this.revision === 'no_stream' ? 0n : (this.revision as bigint) + 1n;
      const page = await this.deps.store.readStream(this.stream, { fromRevision: from, maxCount: pageSize });
      for (const event of page.events) {
        this.state = this.decider.evolve(this.state, { type: event.type, data: event.data } as Event);
        this.revision = event.revision;
      }
      if (page.events.length < pageSize) break;
    }
    this.loaded = true;
  }
}

/** A short random pause, growing with the attempt, so competing writers stop colliding in lockstep. */
function backOff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(2 ** attempt, 100);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
