import { Decider, DomainError, DomainErrorKind, DomainEvent } from '../../src/domain/decider';

/** Given / when / then for a decider: the events so far, a command, and the events or the refusal it must produce. */
export function given<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, history: E[]) {
  const state = history.reduce(decider.evolve, decider.initialState);
  return {
    when(command: C, now = new Date('2026-01-01T00:00:00.000Z')) {
      const decide = () => decider.decide(state, command, now);
      return {
        then(expected: E[]): void {
          expect(decide()).toEqual(expected);
        },
        thenRefuses(kind: DomainErrorKind, message?: RegExp): void {
          let error: unknown;
          try {
            decide();
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).kind).toBe(kind);
          if (message) expect((error as DomainError).message).toMatch(message);
        },
      };
    },
    thenState(expected: S): void {
      expect(state).toEqual(expected);
    },
  };
}
