import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export const ID_PREFIXES = ['agent', 'agentrun', 'wf', 'wfrun'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_${ULID}$`).test(value);
}

/** Makes resource ids (`<prefix>_<ULID>`, sortable by creation time) and event ids (UUIDs). */
export abstract class IdGenerator {
  abstract newId(prefix: IdPrefix): string;
  abstract newEventId(): string;
}

export class UlidIdGenerator extends IdGenerator {
  private readonly ulid = monotonicFactory();

  newId(prefix: IdPrefix): string {
    return `${prefix}_${this.ulid()}`;
  }

  newEventId(): string {
    return randomUUID();
  }
}
