import { randomFillSync } from 'node:crypto';

/** Crockford's base 32, as ULIDs spell it. */
const DIGITS = Buffer.from('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 'latin1');
const TIME_LEN = 10;
const RANDOM_LEN = 16;
const TIME_MAX = 2 ** 48 - 1;
const UNDERSCORE = 0x5f;

/**
 * `<prefix>_<ULID>` ids, monotonic as the `ulid` package's `monotonicFactory` makes them: within one millisecond
 * (or while the clock stands behind the last one) the time part stays and the random part counts up by one, so ids
 * sort in the order they were made. Each id is written into one flat string: the package builds one a character
 * at a time (about 40 strings per id), which counts when a scheduler tick makes 10,000 run ids at once.
 * `now` and `fillRandom` are injected in tests; random bytes are drawn 4 KiB at a time, each used once.
 */
export function monotonicUlid(
  now: () => number = Date.now,
  fillRandom: (pool: Buffer) => void = randomFillSync,
): (prefix: string) => string {
  const pool = Buffer.alloc(4096);
  let next = pool.length;
  let lastTime = -Infinity;
  /** The random part's digits (0–31), most significant first. */
  const random = new Uint8Array(RANDOM_LEN);
  const timeText = Buffer.alloc(TIME_LEN);
  const text = Buffer.alloc(64);

  const drawRandom = () => {
    // Last digit first, as the package draws them: the same bytes make the same id.
    for (let i = RANDOM_LEN - 1; i >= 0; i--) {
      if (next === pool.length) {
        fillRandom(pool);
        next = 0;
      }
      random[i] = pool[next++] >> 3; // 256 is a multiple of 32: every digit equally likely
    }
  };
  const countUp = () => {
    for (let i = RANDOM_LEN - 1; i >= 0; i--) {
      if (random[i] < 31) {
        random[i]++;
        return;
      }
      random[i] = 0;
    }
    throw new Error('Cannot make a later ULID within this millisecond: its random part is at its largest');
  };
  const encodeTime = (time: number) => {
    if (!Number.isInteger(time) || time < 0 || time > TIME_MAX) throw new Error(`Cannot encode ${time} in a ULID`);
    for (let i = TIME_LEN - 1; i >= 0; i--) {
      const digit = time % 32;
      timeText[i] = DIGITS[digit];
      time = (time - digit) / 32;
    }
  };

  return (prefix) => {
    if (prefix.length > text.length - 1 - TIME_LEN - RANDOM_LEN) throw new Error(`The id prefix ${prefix} is too long`);
    const time = now();
    if (time <= lastTime) countUp();
    else {
      encodeTime(time);
      lastTime = time;
      drawRandom();
    }
    let at = text.write(prefix, 0, 'latin1');
    text[at++] = UNDERSCORE;
    at += timeText.copy(text, at);
    for (let i = 0; i < RANDOM_LEN; i++) text[at++] = DIGITS[random[i]];
    return text.toString('latin1', 0, at);
  };
}
