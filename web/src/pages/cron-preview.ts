// The service's own cron rules (five fields, POSIX day semantics, the `cron` package's time-zone handling), so
// the preview says exactly what the service will accept and when it will fire.
import { cronProblem, isTimeZone, nextOccurrenceMs, posixCronTimes } from '../../../src/shared/cron-rules';

export type CronPreview = { valid: true; next: Date[] } | { valid: false; problem: string };

export function previewCron(expression: string, timezone: string, count = 5, from = new Date()): CronPreview {
  const zone = timezone.trim() || 'UTC';
  if (!isTimeZone(zone)) return { valid: false, problem: `${zone} is not an IANA time zone` };
  const problem = cronProblem(expression, zone);
  if (problem) return { valid: false, problem };
  const times = posixCronTimes(expression.trim().split(/\s+/).join(' '), zone);
  const next: Date[] = [];
  let at = from;
  while (next.length < count) {
    at = new Date(nextOccurrenceMs(times, at, zone));
    next.push(at);
  }
  return { valid: true, next };
}
