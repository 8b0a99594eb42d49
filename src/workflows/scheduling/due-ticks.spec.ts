import { CronSchedule } from './cron-schedule';
import { SKIPPED_COUNT_LIMIT, dueTicks } from './due-ticks';

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;

describe('due ticks (the missed-tick policy)', () => {
  const everyMinute = new CronSchedule('* * * * *', 'UTC');
  const after = at('2026-01-01T12:00:00.000Z');

  it('has nothing due before the next tick', () => {
    expect(dueTicks(everyMinute, after, at('2026-01-01T12:00:59.999Z'), 0)).toEqual({ handledUntil: after });
  });

  it('runs the tick that just came, named by its cron time, not by when it was handled', () => {
    expect(dueTicks(everyMinute, after, at('2026-01-01T12:01:00.350Z'), MINUTE)).toEqual({
      run: at('2026-01-01T12:01:00.000Z'),
      handledUntil: at('2026-01-01T12:01:00.000Z'),
    });
  });

  it('runs only the latest of several missed ticks when it is within the window, and skips the others', () => {
    expect(dueTicks(everyMinute, after, at('2026-01-01T12:10:30.000Z'), 5 * MINUTE)).toEqual({
      skip: { first: at('2026-01-01T12:01:00.000Z'), last: at('2026-01-01T12:09:00.000Z'), count: 9 },
      run: at('2026-01-01T12:10:00.000Z'),
      handledUntil: at('2026-01-01T12:10:00.000Z'),
    });
  });

  it('skips every missed tick when the latest is older than the window', () => {
    const hourly = new CronSchedule('0 * * * *', 'UTC');
    expect(dueTicks(hourly, after, at('2026-01-01T15:20:00.000Z'), 5 * MINUTE)).toEqual({
      skip: { first: at('2026-01-01T13:00:00.000Z'), last: at('2026-01-01T15:00:00.000Z'), count: 3 },
      handledUntil: at('2026-01-01T15:00:00.000Z'),
    });
  });

  it('never catches up with a window of 0', () => {
    expect(dueTicks(everyMinute, after, at('2026-01-01T12:01:00.001Z'), 0)).toEqual({
      skip: { first: at('2026-01-01T12:01:00.000Z'), last: at('2026-01-01T12:01:00.000Z'), count: 1 },
      handledUntil: at('2026-01-01T12:01:00.000Z'),
    });
  });

  it('stays cheap after a month down: exact first and last, the count left out beyond the limit', () => {
    const lookups = jest.spyOn(everyMinute, 'nextAfter');
    const due = dueTicks(everyMinute, after, at('2026-02-01T12:00:30.000Z'), 5 * MINUTE);
    expect(due).toEqual({
      skip: { first: at('2026-01-01T12:01:00.000Z'), last: at('2026-02-01T11:59:00.000Z'), count: null },
      run: at('2026-02-01T12:00:00.000Z'),
      handledUntil: at('2026-02-01T12:00:00.000Z'),
    });
    // A month holds 44,640 minutes: the work is bounded by the count's limit and a binary search, not by them.
    expect(lookups.mock.calls.length).toBeLessThan(SKIPPED_COUNT_LIMIT + 100);
    lookups.mockRestore();
    const limitMinutes = SKIPPED_COUNT_LIMIT;
    const justUnder = new Date(+after + limitMinutes * MINUTE + 30_000);
    expect(dueTicks(everyMinute, after, justUnder, 0).skip?.count).toBe(limitMinutes);
  });
});
