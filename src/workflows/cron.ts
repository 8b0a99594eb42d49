import { CronTime } from 'cron';
import { nextOccurrenceMs, posixCronTimes } from './posix-cron';

/**
 * Checks a five-field cron expression (minute hour day-of-month month day-of-week) in a time zone, with POSIX
 * day-of-month/day-of-week semantics (see posix-cron.ts).
 * Returns why it is not valid, or undefined when it is. The `cron` package also accepts a sixth
 * (seconds) field; the API does not.
 */
export function cronProblem(expression: string, timezone = 'UTC'): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    return `must have exactly five fields (minute hour day-of-month month day-of-week), not ${fields.length}`;
  }
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
