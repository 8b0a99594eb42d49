import { createHash, timingSafeEqual } from 'node:crypto';

export type Access = 'write' | 'read';

/**
 * The configured keys, kept only as SHA-256 digests. A presented key is hashed and compared with each digest in
 * constant time, so neither its length nor its content shows in the time the answer takes.
 */
export class ApiKeys {
  private readonly digests: Array<{ digest: Buffer; access: Access }>;

  constructor(writeKeys: string[], readKeys: string[]) {
    this.digests = [
      ...writeKeys.map((key) => ({ digest: digestOf(key), access: 'write' as const })),
      ...readKeys.map((key) => ({ digest: digestOf(key), access: 'read' as const })),
    ];
  }

  get open(): boolean {
    return this.digests.length === 0;
  }

  /** What the key may do, or undefined for a key that is not configured. */
  accessOf(key: string): Access | undefined {
    const presented = digestOf(key);
    let access: Access | undefined;
    for (const entry of this.digests) {
      // Every entry is compared, whether or not an earlier one matched.
      if (timingSafeEqual(presented, entry.digest) && access !== 'write') access = entry.access;
    }
    return access;
  }
}

export function digestOf(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** The bearer token of an `Authorization` header, if it has one. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer +([\x21-\x7e]+)\s*$/i.exec(value) : null;
  return match?.[1];
}
