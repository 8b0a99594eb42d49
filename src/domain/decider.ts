/** A domain event before it is stored: a past-tense type and its payload. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

/** An aggregate as two pure functions (see DESIGN.md, "Domain as deciders"). */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: State;
  decide(state: State, command: Command, now: Date): Event[];
  evolve(state: State, event: Event): State;
}

/** The types of an event union, listed from a record that must name each of them once: none can be forgotten. */
export function eventTypes<Event extends DomainEvent>(types: Record<Event['type'], true>): Array<Event['type']> {
  return Object.keys(types) as Array<Event['type']>;
}

export type DomainErrorKind = 'not_found' | 'conflict' | 'unprocessable' | 'precondition_failed';

/** A command the domain refuses; the HTTP layer turns the kind into a status code. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors: Array<{ path: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
