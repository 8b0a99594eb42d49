const HOUR = 3_600_000;

/** The wait before the next attempt after `attempt` failed: `base`, doubling each time, at most an hour, ±25 % jitter. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** Math.min(attempt - 1, 30), HOUR);
  return Math.round(exponential * (0.75 + random() * 0.5));
}
