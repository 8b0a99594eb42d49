import { Clock } from '../../src/shared/clock';

/** A clock the test moves by hand. */
export class TestClock extends Clock {
  constructor(private current = new Date('2026-03-01T12:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(at: Date | string): void {
    this.current = new Date(at);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
