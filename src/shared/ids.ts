import { randomFillSync, randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export const ID_PREFIXES = ['agent', 'agentrun', 'wf', 'wfrun', 'thread', 'whk'] as const;
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
  private readonly ulid = monotonicFactory(pooledRandom());

  newId(prefix: IdPrefix): string {
    return `${prefix}_${this.ulid()}`;
  }

  newEventId(): string {
    return randomUUID();
  }
}

/** ulid's default generator draws one byte from the OS per character; this draws them 4 KiB at a time. */
function pooledRandom(): () => number {
  const pool = Buffer.alloc(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++] / 256;
  };
}
