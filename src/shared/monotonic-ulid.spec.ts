import { decodeTime, monotonicFactory } from 'ulid';
import { monotonicUlid } from './monotonic-ulid';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Bytes from a seeded sequence, for both generators alike. */
function seededBytes(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) & 0xff;
}

describe('monotonicUlid', () => {
  it('makes the ids the ulid package makes from the same times and random bytes, ties and a clock going back included', () => {
    const times = [
      1_000, 1_000, 1_000, 1_001, 5_000_000_000_000, 5_000_000_000_000, 4_999_999_999_999, 5_000_000_000_001,
    ];
    const ours = { bytes: seededBytes(7), time: 0 };
    const theirs = { bytes: seededBytes(7) };
    const next = monotonicUlid(
      () => times[ours.time++],
      (pool) => {
        for (let i = 0; i < pool.length; i++) pool[i] = ours.bytes();
      },
    );
    const reference = monotonicFactory(() => theirs.bytes() / 256);
    for (const time of times) {
      const id = next('wfrun');
      expect(id).toBe(`wfrun_${reference(time)}`);
    }
  });

  it('counts up within a millisecond across carries, stamps the time, and refuses to pass the largest', () => {
    let fills = 0;
    const at = (time: number, mostSignificant: number) =>
      monotonicUlid(
        () => time,
        (pool) => {
          fills++;
          pool.fill(31 << 3); // every digit Z...
          pool[15] = mostSignificant << 3; // ...but the first, which is drawn last
        },
      );
    const next = at(1_700_000_000_123, 0);
    const ids = [next('wf'), next('wf'), next('wf')];
    expect(ids.map((id) => id.slice(13))).toEqual(['0ZZZZZZZZZZZZZZZ', '1000000000000000', '1000000000000001']);
    for (const id of ids) {
      expect(id.slice(0, 3)).toBe('wf_');
      expect(id.slice(3)).toMatch(ULID);
      expect(decodeTime(id.slice(3))).toBe(1_700_000_000_123);
    }
    expect(fills).toBe(1);
    const full = at(1_000, 31);
    expect(full('wf').slice(13)).toBe('ZZZZZZZZZZZZZZZZ');
    expect(() => full('wf')).toThrow(/random part is at its largest/);
  });

  it('refuses a time a ULID cannot hold, and a prefix too long', () => {
    expect(() => monotonicUlid(() => -1)('wf')).toThrow(/Cannot encode -1/);
    expect(() => monotonicUlid(() => 2 ** 48)('wf')).toThrow(/Cannot encode/);
    expect(() => monotonicUlid()('x'.repeat(40))).toThrow(/too long/);
  });
});
