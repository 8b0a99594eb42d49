import { pooledUuidV4, UlidIdGenerator } from './ids';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event ids', () => {
  it('are version 4 UUIDs, none repeated across many refills of the random pool', () => {
    const next = pooledUuidV4();
    const ids = Array.from({ length: 2000 }, () => next()); // 4 KiB holds 256 of them
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('use every random bit outside the version and variant', () => {
    const next = pooledUuidV4();
    const ids = Array.from({ length: 500 }, () => next().replace(/-/g, ''));
    // Each hex digit takes many values across the ids, except the version digit; the variant digit takes 4.
    const digitsAt = (i: number) => new Set(ids.map((id) => id[i])).size;
    for (let i = 0; i < 32; i++) {
      if (i === 12) expect(digitsAt(i)).toBe(1);
      else if (i === 16) expect(digitsAt(i)).toBe(4);
      else expect(digitsAt(i)).toBeGreaterThan(12);
    }
  });

  it('are what the generator gives events', () => {
    const ids = new UlidIdGenerator();
    const [a, b] = [ids.newEventId(), ids.newEventId()];
    expect(a).toMatch(UUID_V4);
    expect(b).not.toBe(a);
  });
});
