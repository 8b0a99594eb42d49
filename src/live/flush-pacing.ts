/** While the log is quiet, the live subscribers are written at most this often (each write: a syscall per socket). */
export const FLUSH_INTERVAL_MS = 50;
/** However busy the log, a subscriber waits at most this long for a commit. */
export const MAX_FLUSH_INTERVAL_MS = 250;
/** Up to this many events a second, the flushes come every FLUSH_INTERVAL_MS; past it, as much less often. */
export const QUIET_EVENTS_PER_SECOND = 150;
/** How fast the measure of the rate follows it (ms): a change counts in full after about this long. */
const FOLLOW_MS = 500;

/**
 * How long the event feed waits between two writes to its live subscribers. While the log is quiet it writes them
 * every FLUSH_INTERVAL_MS, so that a commit reaches them quickly. The busier the log, the longer the wait (as the
 * rate of events over QUIET_EVENTS_PER_SECOND, up to MAX_FLUSH_INTERVAL_MS), so that each write carries more and
 * the writes, one per subscriber per flush, take a smaller part of the main thread just when it is busiest.
 */
export class FlushPacing {
  private eventsPerSecond = 0;
  private lastFlushAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastFlushAt = now();
  }

  /**
   * The wait from one flush to the next, with `waiting` events queued since the last. Once FLUSH_INTERVAL_MS have
   * gone by, those tell a rate too: a log that has just gone quiet is written at once, not after the long wait.
   */
  intervalMs(waiting: number): number {
    const since = this.now() - this.lastFlushAt;
    const rate =
      since < FLUSH_INTERVAL_MS ? this.eventsPerSecond : Math.min(this.eventsPerSecond, (waiting * 1000) / since);
    const paced = (FLUSH_INTERVAL_MS * rate) / QUIET_EVENTS_PER_SECOND;
    return Math.min(MAX_FLUSH_INTERVAL_MS, Math.max(FLUSH_INTERVAL_MS, paced));
  }

  /** A flush has written `events`: the rate since the one before moves the mean. */
  flushed(events: number): void {
    const at = this.now();
    const elapsed = at - this.lastFlushAt;
    this.lastFlushAt = at;
    if (elapsed <= 0) return;
    const weight = 1 - Math.exp(-elapsed / FOLLOW_MS);
    this.eventsPerSecond += weight * ((events * 1000) / elapsed - this.eventsPerSecond);
  }
}
