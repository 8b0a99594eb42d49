import { CronTime } from 'cron';
import { nextOccurrenceMs, posixCronTimes } from '../../shared/cron-rules';

const MINUTE = 60_000;
/** Shared by every schedule, oldest entries dropped first: a few MB, whatever the number of schedules. */
const MEMO_SIZE = 50_000;
const memo = new Map<string, number>();

/**
 * The occurrences of a five-field cron in a time zone, as the `cron` package computes them (daylight-saving
 * rules included), with POSIX day-of-month/day-of-week semantics. Computing one takes the package about a millisecond, so results are memoized: thousands of
 * workflows on the same schedule share one computation per tick.
 */
export class CronSchedule {
  private readonly times: CronTime[];
  private readonly key: string;
  private jobTime?: CronTime;
  private lastMinute = NaN;
  private lastNext = NaN;
  private previousMinute = NaN;
  private previousNext = NaN;

  constructor(
    readonly cron: string,
    readonly timezone: string,
  ) {
    this.times = posixCronTimes(cron, timezone);
    this.key = `${timezone} ${cron} `;
  }

  /** The first occurrence strictly after `instant`. */
  nextAfter(instant: Date | number): Date {
    return new Date(this.nextMs(+instant));
  }

  private nextMs(instant: number): number {
    // Occurrences fall on whole minutes, so the next one after any instant of a minute is the next after its
    // last second; starting there also spares the package stepping through the minute second by second.
    const minute = Math.floor(instant / MINUTE) * MINUTE;
    // Every job of a schedule asks about the same minutes when it fires (the tick handled last, and this tick):
    // the last two answers serve them all.
    if (minute === this.lastMinute) return this.lastNext;
    if (minute === this.previousMinute) return this.previousNext;
    const key = this.key + minute;
    let next = memo.get(key);
    if (next === undefined) {
      next = nextOccurrenceMs(this.times, new Date(minute + 59_000), this.timezone);
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
      memo.set(key, next);
    }
    this.previousMinute = this.lastMinute;
    this.previousNext = this.lastNext;
    this.lastMinute = minute;
    this.lastNext = next;
    return next;
  }

  /** The latest occurrence in (after, until], or null; a binary search, so long spans cost little. */
  latestIn(after: Date, until: Date): Date | null {
    const first = this.nextAfter(after);
    if (first > until) return null;
    // Invariant: nextAfter(low) <= until < nextAfter(high); minute resolution is exact for five fields.
    let low = Math.floor(+first / MINUTE) * MINUTE - MINUTE;
    let high = Math.floor(+until / MINUTE) * MINUTE;
    while (high - low > MINUTE) {
      const mid = low + Math.floor((high - low) / MINUTE / 2) * MINUTE;
      if (+this.nextAfter(mid) <= +until) low = mid;
      else high = mid;
    }
    return this.nextAfter(low);
  }

  /** How many occurrences fall in [first, last], counting at most `limit` (null beyond). */
  countFrom(first: Date, last: Date, limit: number): number | null {
    let count = 0;
    for (let at = first; at <= last; at = this.nextAfter(at)) {
      if (++count > limit) return null;
    }
    return count;
  }

  /** The `CronTime` this schedule's `CronJob`s share: it answers their timeouts from the memo. */
  cronTime(): CronTime {
    const nextMs = (instant: number) => this.nextMs(instant);
    this.jobTime ??= new (class extends CronTime {
      override getTimeout(): number {
        const now = Date.now();
        return nextMs(now) - now;
      }
    })(this.cron, this.timezone);
    return this.jobTime;
  }
}

const schedules = new Map<string, CronSchedule>();

/** One shared schedule per cron and time zone. */
export function cronSchedule(cron: string, timezone: string): CronSchedule {
  const key = `${timezone} ${cron}`;
  let schedule = schedules.get(key);
  if (!schedule) {
    schedule = new CronSchedule(cron, timezone);
    schedules.set(key, schedule);
  }
  return schedule;
}
