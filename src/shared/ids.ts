import { randomFillSync } from 'node:crypto';
import { monotonicUlid } from './monotonic-ulid';

export const ID_PREFIXES = [
  'agent',
  'agentrun',
  'wf',
  'wfrun',
  'thread',
  'whk',
  'dataset',
  'dsitem',
  'scorer',
  'experiment',
  'signal',
] as const;
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
  private readonly prefixedUlid = monotonicUlid();
  private readonly uuid = pooledUuidV4();

  newId(prefix: IdPrefix): string {
    return this.prefixedUlid(prefix);
  }

  newEventId(): string {
    return this.uuid();
  }
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

/**
 * Random (version 4) UUIDs, as `crypto.randomUUID` makes them, from the OS's CSPRNG drawn 4 KiB at a time (each
 * byte used once), each written into one flat string: `randomUUID` joins it from 20 pieces, about 10 times the
 * garbage, which counts when a scheduler tick makes 20,000 of them.
 */
export function pooledUuidV4(): () => string {
  const pool = Buffer.alloc(4096);
  let next = pool.length;
  const text = Buffer.alloc(36);
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    let at = 0;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
      let byte = pool[next + i];
      if (i === 6) byte = (byte & 0x0f) | 0x40; // the version: 4
      if (i === 8) byte = (byte & 0x3f) | 0x80; // the variant: 10xx
      text[at++] = HEX_DIGITS[byte >> 4];
      text[at++] = HEX_DIGITS[byte & 0x0f];
    }
    next += 16;
    return text.toString('latin1', 0, 36);
  };
}
