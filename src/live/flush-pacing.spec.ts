import { FLUSH_INTERVAL_MS, FlushPacing, MAX_FLUSH_INTERVAL_MS, QUIET_EVENTS_PER_SECOND } from './flush-pacing';

/** A pacing on a clock the test moves, flushed `times` times, every `everyMs`, of `eventsPerSecond`. */
function pacedAt(eventsPerSecond: number, everyMs: number, times = 60) {
  let now = 0;
  const pacing = new FlushPacing(() => now);
  for (let i = 0; i < times; i++) {
    now += everyMs;
    pacing.flushed((eventsPerSecond * everyMs) / 1000);
  }
  return {
    pacing,
    /** `ms` go by. */
    wait: (ms: number) => (now += ms),
  };
}

describe('FlushPacing', () => {
  it('flushes every FLUSH_INTERVAL_MS while the log is quiet', () => {
    expect(new FlushPacing(() => 0).intervalMs(0)).toBe(FLUSH_INTERVAL_MS);
    const { pacing } = pacedAt(QUIET_EVENTS_PER_SECOND / 2, FLUSH_INTERVAL_MS);
    expect(pacing.intervalMs(0)).toBe(FLUSH_INTERVAL_MS);
  });

  it('waits as much longer as the log is busier than QUIET_EVENTS_PER_SECOND, up to MAX_FLUSH_INTERVAL_MS', () => {
    const twice = pacedAt(QUIET_EVENTS_PER_SECOND * 2, 100).pacing;
    expect(twice.intervalMs(0)).toBeCloseTo(FLUSH_INTERVAL_MS * 2, 0);
    const flooded = pacedAt(QUIET_EVENTS_PER_SECOND * 100, MAX_FLUSH_INTERVAL_MS).pacing;
    expect(flooded.intervalMs(0)).toBe(MAX_FLUSH_INTERVAL_MS);
  });

  it('writes a log that has just gone quiet at once, from the events that wait since the last flush', () => {
    const { pacing, wait } = pacedAt(QUIET_EVENTS_PER_SECOND * 4, 200);
    expect(pacing.intervalMs(1)).toBeCloseTo(200, 0);
    // Just after the flush the mean holds; once FLUSH_INTERVAL_MS have gone by, 3 events in 60 ms tell the rate.
    wait(FLUSH_INTERVAL_MS + 10);
    expect(pacing.intervalMs(3)).toBe(FLUSH_INTERVAL_MS);
    // As many as before: still busy.
    expect(pacing.intervalMs(((QUIET_EVENTS_PER_SECOND * 4) / 1000) * 60)).toBeCloseTo(200, 0);
  });
});
