import { DomainError } from './decider';

/**
 * What agents and workflows share as definitions: a version counting their changes from 1, preconditions on it
 * (HTTP `If-Match`), and archiving.
 */
export interface Versioned {
  version: number;
}

/** `ifMatch`: the versions the client accepts (from `If-Match`); undefined means any. */
export interface Preconditions {
  ifMatch?: number[];
}

export function checkIfMatch(kind: string, id: string, state: Versioned, { ifMatch }: Preconditions): void {
  if (ifMatch && !ifMatch.includes(state.version)) {
    throw new DomainError(
      'precondition_failed',
      `${kind} ${id} is at version ${state.version}, not the one If-Match names; read it again`,
    );
  }
}

/** Refused when a patch was merged onto an older version than the one the actor holds: the handler tries again. */
export class ChangedMeanwhile extends DomainError {
  constructor(kind: string, id: string) {
    super('conflict', `${kind} ${id} was changed by another request meanwhile; try again`);
  }
}

export function checkBaseVersion(kind: string, id: string, state: Versioned, baseVersion: number): void {
  if (state.version !== baseVersion) throw new ChangedMeanwhile(kind, id);
}

/** The fields whose value differs (deep, as JSON), with their new values. */
export function changedFields<T extends object>(current: T, next: Partial<T>): Partial<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(next) as Array<keyof T>) {
    if (JSON.stringify(current[key]) !== JSON.stringify(next[key])) changes[key] = next[key];
  }
  return changes;
}
