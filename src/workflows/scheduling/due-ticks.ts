import { CronSchedule } from './cron-schedule';

/** Counting skipped ticks one by one stops here (a minute schedule down for 17 hours); first and last stay exact. */
export const SKIPPED_COUNT_LIMIT = 1000;

/**
 * While the service runs, a tick handled late (a busy or suspended machine) still runs if at most this late,
 * even when the catch-up window is shorter: the window is about downtime, not about timers firing late.
 */
export const LATE_TICK_GRACE_MS = 60_000;

export interface DueTicks {
  /** Ticks that will not run: every occurrence from `first` to `last`. */
  skip?: { first: Date; last: Date; count: number | null };
  /** The one tick to run now. */
  run?: Date;
  /** The latest tick now handled (run or skipped): the next call starts after it. */
  handledUntil: Date;
}

/**
 * The missed-tick policy, in one place: of the ticks after `after` up to `now`, the latest runs once if it is at
 * most `windowMs` old; every other one is skipped, recorded as one range. Never a burst of runs.
 */
export function dueTicks(schedule: CronSchedule, after: Date, now: Date, windowMs: number): DueTicks {
  const next = schedule.nextAfter(after);
  if (next > now) return { handledUntil: after };
  // The usual case, a timer firing for its tick: exactly one is due, and it is on time.
  if (+now - +next <= windowMs && schedule.nextAfter(next) > now) return { run: next, handledUntil: next };
  const latest = schedule.latestIn(after, now);
  if (!latest) return { handledUntil: after };
  const run = +now - +latest <= windowMs ? latest : undefined;
  const lastSkipped = run ? schedule.latestIn(after, new Date(+latest - 1)) : latest;
  if (!lastSkipped) return { run, handledUntil: latest };
  const skip = { first: next, last: lastSkipped, count: schedule.countFrom(next, lastSkipped, SKIPPED_COUNT_LIMIT) };
  return { skip, run, handledUntil: latest };
}

const MINUTE = 60_000;

/**
 * `dueTicks` for the many workflows a timer fires for, all at one `now`. Cron occurrences fall on whole minutes,
 * so the answer depends on `after` only through its minute: workflows of one schedule handled up to the same
 * minute (all of them, once they have run a tick together) share one answer, worked out once per pass.
 */
export class DueTicksAt {
  private readonly answers = new Map<CronSchedule, Map<number, { after: Date; ticks: DueTicks }>>();

  constructor(
    private readonly now: Date,
    private readonly windowMs: number,
  ) {}

  of(schedule: CronSchedule, after: Date): DueTicks {
    let bySchedule = this.answers.get(schedule);
    if (!bySchedule) this.answers.set(schedule, (bySchedule = new Map()));
    const minute = Math.floor(+after / MINUTE);
    let answer = bySchedule.get(minute);
    if (!answer)
      bySchedule.set(minute, (answer = { after, ticks: dueTicks(schedule, after, this.now, this.windowMs) }));
    const { ticks } = answer;
    // Nothing handled: the workflow stays at its own instant, not at another's of the same minute.
    return ticks.handledUntil === answer.after && after !== answer.after ? { ...ticks, handledUntil: after } : ticks;
  }
}
