import { CronTime } from 'cron';

/**
 * POSIX crontab semantics on top of the `cron` package: when day-of-month and day-of-week are both restricted
 * (a field is restricted unless it is a literal `*`), a day matching either fires. The package instead treats a
 * field listing every value (`0-6`, `1-31`) as unrestricted and otherwise requires both; so such an expression
 * is split into a day-of-month part and a day-of-week part, and the earlier occurrence of the two wins.
 */
export function posixCronTimes(expression: string, timezone: string): CronTime[] {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = expression.trim().split(/\s+/);
  if (dayOfMonth === '*' || dayOfWeek === '*') return [new CronTime(expression, timezone)];
  return [
    new CronTime(`${minute} ${hour} ${dayOfMonth} ${month} *`, timezone),
    new CronTime(`${minute} ${hour} * ${month} ${dayOfWeek}`, timezone),
  ];
}

/** The first occurrence after `from` (ms) of any of the parts; a part that never fires is skipped. */
export function nextOccurrenceMs(times: CronTime[], from: Date, timezone: string): number {
  let next = Infinity;
  let failure: unknown;
  for (const time of times) {
    try {
      next = Math.min(next, time.getNextDateFrom(from, timezone).toMillis());
    } catch (error) {
      failure = error;
    }
  }
  if (next === Infinity) throw failure;
  return next;
}
