/** A domain event before it is stored: a past-tense type and its payload. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

/** An aggregate as two pure functions (docs/architecture.md, "Deciders and actors"). */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: State;
  decide(state: State, command: Command, now: Date): Event[];
  evolve(state: State, event: Event): State;
  /** Declared by a decider whose long streams should load from a snapshot rather than replay from revision 0. */
  snapshot?: SnapshotFormat<State>;
  /**
   * False for a decider whose streams stay a few events long, or are used a few times and then never again (runs):
   * an actor caught up with such a stream reads as much as one loading it afresh, so keeping it cached would only
   * hold memory and push busy actors out of the cache. The actors' one caching policy (see ActorRegistry.of).
   */
  cacheActors?: false;
}

/**
 * How a decider's state is written in a snapshot (docs/architecture.md, "Snapshots"). A snapshot of another
 * `version` is ignored: the stream is replayed and a snapshot of this version written. Bump `version` whenever a
 * snapshot written before would not equal a replay now: the state's fields change in shape or meaning, or `evolve`
 * folds any existing event differently (a fix, a new field derived from old events, an event it used to ignore).
 */
export interface SnapshotFormat<State> {
  version: number;
  /** The state as JSON-compatible data. Default: the state itself (it must then hold JSON values only). */
  toJson?(state: State): unknown;
  /** The state back from what `toJson` made (bigint, Date, Map rebuilt here); throws if `json` is not one. */
  fromJson(json: unknown): State;
}

/** The types of an event union, listed from a record that must name each of them once: none can be forgotten. */
export function eventTypes<Event extends DomainEvent>(types: Record<Event['type'], true>): Array<Event['type']> {
  return Object.keys(types) as Array<Event['type']>;
}

/** `upstream_failed`: what the command needed of a model or an agent's run failed (a 502, not the caller's fault). */
export type DomainErrorKind = 'not_found' | 'conflict' | 'unprocessable' | 'precondition_failed' | 'upstream_failed';

/** A command the domain refuses; the HTTP layer turns the kind into a status code. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors: Array<{ path: string; message: string }> = [],
    /** The problem type, when a more precise one than the kind's helps clients (`not-waiting`). */
    readonly problemType?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
