/** Where the service reads the time; tests inject a controllable one. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

let lastTime: Date | undefined;
let lastMs = NaN;
let lastText = '';

/**
 * `date.toISOString()`, the same string for the same Date object as last time: a pass that decides thousands of
 * commands at one `now` (a scheduler tick) then makes and keeps one string for it, not one per event.
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  // The time too: a Date can be changed in place.
  if (date !== lastTime || ms !== lastMs) {
    lastText = date.toISOString();
    lastTime = date;
    lastMs = ms;
  }
  return lastText;
}
