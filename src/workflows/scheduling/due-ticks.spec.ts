import { CronSchedule } from './cron-schedule';
import { DueTicksAt, SKIPPED_COUNT_LIMIT, dueTicks } from './due-ticks';

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

describe('due ticks at one instant, for many workflows', () => {
  const everyMinute = new CronSchedule('* * * * *', 'UTC');
  const everyFive = new CronSchedule('*/5 * * * *', 'UTC');
  const now = at('2026-01-01T12:10:00.004Z');
  const cases: Array<[CronSchedule, string]> = [
    [everyMinute, '2026-01-01T12:09:00.000Z'], // on time
    [everyMinute, '2026-01-01T12:09:17.250Z'], // created within the last minute
    [everyMinute, '2026-01-01T12:09:40.000Z'], // the same minute again: the same answer
    [everyMinute, '2026-01-01T12:10:00.004Z'], // created at this very instant: nothing due
    [everyMinute, '2026-01-01T12:10:00.001Z'], // and again, at another instant of that minute: its own kept
    [everyMinute, '2026-01-01T11:58:00.000Z'], // down for a while: skips, then runs
    [everyMinute, '2026-01-01T09:00:00.000Z'], // down beyond the window: skips only
    [everyFive, '2026-01-01T12:09:00.000Z'], // another schedule, the same minute: its own answer
    [everyFive, '2026-01-01T12:02:30.000Z'],
  ];

  it('answers for each workflow what dueTicks answers, whichever came first in the minute', () => {
    for (const order of [cases, [...cases].reverse()]) {
      const due = new DueTicksAt(now, 5 * MINUTE);
      for (const [schedule, after] of order)
        expect(due.of(schedule, at(after))).toEqual(dueTicks(schedule, at(after), now, 5 * MINUTE));
    }
  });

  it('works a minute out once per schedule', () => {
    const spy = jest.spyOn(everyMinute, 'nextAfter');
    const due = new DueTicksAt(now, 5 * MINUTE);
    for (let second = 0; second < 60; second++)
      due.of(everyMinute, at(`2026-01-01T12:09:${String(second).padStart(2, '0')}.000Z`));
    const calls = spy.mock.calls.length;
    spy.mockRestore();
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(2);
  });
});
