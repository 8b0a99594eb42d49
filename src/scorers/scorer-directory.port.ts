import type { Scorer } from './scorer';

/** What the features built on scorers read of them: a scorer by id, or the active one of a name. */
export abstract class ScorerDirectory {
  abstract get(scorerId: string): Scorer | undefined;

  abstract activeNamed(name: string): Scorer | undefined;
}
