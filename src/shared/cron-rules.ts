// `cron/dist/time` rather than `cron`: the package's index also loads its job runner, which needs Node's
// child_process; the web console's cron preview runs these same rules in the browser.
import { CronTime } from 'cron/dist/time';

/**
 * The service's cron rules, shared by the scheduler, the API's validation and the web console's preview: five
 * fields (minute hour day-of-month month day-of-week) in an IANA time zone, evaluated by the `cron` package
 * (daylight-saving rules included), with POSIX day-of-month/day-of-week semantics. This module imports nothing
 * from the server.
 */

const FIELDS = [
  { name: 'minute', values: '0-59' },
  { name: 'hour', values: '0-23' },
  { name: 'day-of-month', values: '1-31' },
  { name: 'month', values: '1-12 or JAN-DEC' },
  { name: 'day-of-week', values: '0-7 or SUN-SAT' },
];

/** The first field that is invalid on its own, named with the values it takes ("hour field "25": …"). */
function fieldProblem(fields: string[], timezone: string): string | undefined {
  for (const [i, field] of FIELDS.entries()) {
    const alone = fields.map((value, j) => (j === i ? value : '*')).join(' ');
    try {
      new CronTime(alone, timezone);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
      return `has an invalid ${field.name} field "${fields[i]}" (${field.values}): ${reason}`;
    }
  }
  return undefined;
}

/** Why a five-field cron expression is not valid in a time zone, or undefined when it is. */
export function cronProblem(expression: string, timezone = 'UTC'): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    // The `cron` package also accepts a sixth (seconds) field; the API does not.
    return `must have exactly five fields (minute hour day-of-month month day-of-week), not ${fields.length}`;
  }
  const invalidField = fieldProblem(fields, timezone);
  if (invalidField) return invalidField;
  try {
    new CronTime(fields.join(' '), timezone);
    nextOccurrenceMs(posixCronTimes(fields.join(' '), timezone), new Date(), timezone);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith('Something went wrong')) return 'never fires (no date matches it)';
    return message.replace(/\.$/, '');
  }
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

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
