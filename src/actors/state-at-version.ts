import { Decider, DomainError, DomainEvent } from '../domain/decider';
import { Versioned } from '../domain/definition';
import { EventStore } from '../event-store/event-store';

const PAGE = 500;

/**
 * A definition (agent or workflow) as it was at `version`, folded from its stream's events up to the event that
 * made that version (later events are not read). 404 when the stream has no such version.
 */
export async function stateAtVersion<S extends Versioned | null, C, E extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<S, C, E>,
  version: number,
  what: string,
): Promise<NonNullable<S>> {
  let state = decider.initialState;
  let from = 0n;
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    for (const event of page.events) {
      const next = decider.evolve(state, { type: event.type, data: event.data } as E);
      if (next && next.version > version) return found(state, what, version);
      state = next;
      from = event.revision + 1n;
    }
    if (page.events.length < PAGE) return found(state, what, version);
  }
}

function found<S extends Versioned | null>(state: S, what: string, version: number): NonNullable<S> {
  if (!state) throw new DomainError('not_found', `${what} does not exist`);
  if (state.version !== version) {
    throw new DomainError('not_found', `${what} has no version ${version} (its latest is ${state.version})`);
  }
  return state;
}
