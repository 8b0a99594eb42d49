/** Where the service reads the time; tests inject a controllable one. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

let lastMs = NaN;
let lastText = '';

/**
 * `date.toISOString()`, the same string as last time for the same instant: a pass that decides thousands of
 * commands at one `now`, for one tick (a scheduler's), then makes and keeps one string for it, not one per event.
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastText = date.toISOString(); // throws for an invalid Date, as toISOString does
    lastMs = ms;
  }
  return lastText;
}
