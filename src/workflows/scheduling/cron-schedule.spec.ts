import { CronTime } from 'cron';
import { CronSchedule, cronSchedule } from './cron-schedule';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('cron schedule', () => {
  const nextFour = (cron: string, from: string) => {
    const schedule = new CronSchedule(cron, 'UTC');
    const seen: string[] = [];
    for (let t = at(from); seen.length < 4;) seen.push(iso((t = schedule.nextAfter(t)))!);
    return seen;
  };

  it('answers questions alternating between minutes (each workflow asks about its last tick and this one) rightly', () => {
    const schedule = new CronSchedule('*/5 * * * *', 'UTC');
    const answers = [];
    for (let i = 0; i < 3; i++) {
      for (const from of ['2026-03-02T09:01:30Z', '2026-03-02T09:06:10Z', '2026-03-02T09:12:00Z'])
        answers.push(iso(schedule.nextAfter(at(from))));
    }
    expect(answers).toEqual(
      Array(3).fill(['2026-03-02T09:05:00.000Z', '2026-03-02T09:10:00.000Z', '2026-03-02T09:15:00.000Z']).flat(),
    );
  });

  describe('POSIX day-of-month / day-of-week semantics', () => {
    it('fires on a day matching either field when both are restricted, even if one lists every day', () => {
      expect(nextFour('4,53 20 4 11 0-6', '2026-11-01T00:00:00Z')).toEqual([
        '2026-11-01T20:04:00.000Z',
        '2026-11-01T20:53:00.000Z',
        '2026-11-02T20:04:00.000Z',
        '2026-11-02T20:53:00.000Z',
      ]);
    });

    it('fires on the 13th and on every Friday for "0 12 13 * 5"', () => {
      // 2026-03: Fridays are the 6th, 13th, 20th, 27th; the 13th is one of them.
      expect(nextFour('0 12 13 * 5', '2026-03-01T00:00:00Z')).toEqual([
        '2026-03-06T12:00:00.000Z',
        '2026-03-13T12:00:00.000Z',
        '2026-03-20T12:00:00.000Z',
        '2026-03-27T12:00:00.000Z',
      ]);
      expect(nextFour('0 12 13 * 5', '2026-04-01T00:00:00Z')).toEqual([
        '2026-04-03T12:00:00.000Z',
        '2026-04-10T12:00:00.000Z',
        '2026-04-13T12:00:00.000Z',
        '2026-04-17T12:00:00.000Z',
      ]);
    });

    it('counts "1-31" as restricted: with a day of week, every day fires', () => {
      expect(nextFour('0 0 1-31 * 1', '2026-03-01T12:00:00Z')[0]).toBe('2026-03-02T00:00:00.000Z');
      expect(nextFour('0 0 1-31 * 1', '2026-03-01T12:00:00Z')[1]).toBe('2026-03-03T00:00:00.000Z');
    });

    it('keeps one field alone when the other is a literal *', () => {
      expect(nextFour('0 0 * * 1', '2026-03-01T00:00:00Z')[1]).toBe('2026-03-09T00:00:00.000Z');
      expect(nextFour('0 0 4 * *', '2026-03-01T00:00:00Z')[1]).toBe('2026-04-04T00:00:00.000Z');
    });
  });

  it('gives the first occurrence strictly after an instant', () => {
    const everyQuarter = new CronSchedule('*/15 * * * *', 'UTC');
    expect(iso(everyQuarter.nextAfter(at('2026-03-01T12:00:00.000Z')))).toBe('2026-03-01T12:15:00.000Z');
    expect(iso(everyQuarter.nextAfter(at('2026-03-01T12:14:59.999Z')))).toBe('2026-03-01T12:15:00.000Z');
    expect(iso(everyQuarter.nextAfter(at('2026-03-01T12:15:00.000Z')))).toBe('2026-03-01T12:30:00.000Z');
  });

  it('honours the time zone, daylight-saving changes included, as the cron package does', () => {
    const cases: Array<[string, string, string[]]> = [
      // 02:30 does not exist in Berlin on 29 March 2026: that day it runs at 03:00 CEST.
      [
        '30 2 * * *',
        '2026-03-27T00:00:00Z',
        ['2026-03-27T01:30', '2026-03-28T01:30', '2026-03-29T01:00', '2026-03-30T00:30'],
      ],
      // 02:00 happens twice on 25 October 2026: an hourly schedule runs at both, a daily one once.
      ['0 * * * *', '2026-10-24T23:30:00Z', ['2026-10-25T00:00', '2026-10-25T01:00', '2026-10-25T02:00']],
      ['30 2 * * *', '2026-10-24T00:00:00Z', ['2026-10-24T00:30', '2026-10-25T00:30', '2026-10-26T01:30']],
    ];
    for (const [cron, from, expected] of cases) {
      const schedule = new CronSchedule(cron, 'Europe/Berlin');
      const seen: string[] = [];
      for (let t = at(from); seen.length < expected.length;) seen.push(iso((t = schedule.nextAfter(t)))!.slice(0, 16));
      expect(seen).toEqual(expected);
    }
  });

  it('agrees with the cron package at any instant of a minute, around daylight-saving changes', () => {
    const schedules = ['* * * * *', '30 2 * * *', '*/7 1-3 * * *', '15,45 * * 3,10 0', '0 9 * * 1-5'];
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'];
    const instants = [
      '2026-03-29T00:59:59.999Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-08T06:59:30.500Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.001Z',
      '2026-11-01T05:30:59.000Z',
      '2026-04-04T14:45:12.345Z',
    ];
    for (const cron of schedules) {
      for (const zone of zones) {
        const reference = new CronTime(cron, zone);
        const schedule = new CronSchedule(cron, zone);
        for (const instant of instants) {
          expect([cron, zone, instant, iso(schedule.nextAfter(at(instant)))]).toEqual([
            cron,
            zone,
            instant,
            reference.getNextDateFrom(at(instant), zone).toJSDate().toISOString(),
          ]);
        }
      }
    }
  });

  it('finds the latest occurrence in a span, however long', () => {
    const everyMinute = new CronSchedule('* * * * *', 'UTC');
    const after = at('2026-01-01T00:00:00.000Z');
    expect(iso(everyMinute.latestIn(after, at('2026-01-31T17:42:31.000Z')))).toBe('2026-01-31T17:42:00.000Z');
    expect(iso(everyMinute.latestIn(after, at('2026-01-01T00:01:00.000Z')))).toBe('2026-01-01T00:01:00.000Z');
    expect(everyMinute.latestIn(after, at('2026-01-01T00:00:59.999Z'))).toBeNull();
    const weekdays = new CronSchedule('0 9 * * 1-5', 'Europe/Berlin');
    // Sunday evening: the latest is Friday 09:00 CET.
    expect(iso(weekdays.latestIn(after, at('2026-01-11T20:00:00.000Z')))).toBe('2026-01-09T08:00:00.000Z');
  });

  it('counts occurrences, up to a limit', () => {
    const hourly = new CronSchedule('0 * * * *', 'UTC');
    expect(hourly.countFrom(at('2026-01-01T01:00:00Z'), at('2026-01-01T05:00:00Z'), 10)).toBe(5);
    expect(hourly.countFrom(at('2026-01-01T01:00:00Z'), at('2026-01-01T05:00:00Z'), 4)).toBeNull();
  });

  it('is shared per cron and time zone', () => {
    expect(cronSchedule('0 9 * * 1-5', 'UTC')).toBe(cronSchedule('0 9 * * 1-5', 'UTC'));
    expect(cronSchedule('0 9 * * 1-5', 'UTC')).not.toBe(cronSchedule('0 9 * * 1-5', 'Europe/Berlin'));
  });

  it('gives CronJobs a timeout to the next occurrence', () => {
    jest.useFakeTimers({ now: at('2026-01-01T00:00:40.000Z') });
    try {
      expect(new CronSchedule('* * * * *', 'UTC').cronTime().getTimeout()).toBe(20_000);
    } finally {
      jest.useRealTimers();
    }
  });
});
