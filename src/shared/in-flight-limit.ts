/** Work started side by side, at most `size` at once. */
export class InFlightLimit {
  private used = 0;
  private waiting?: () => void;
  private drained?: () => void;

  constructor(private readonly size: number) {}

  /** Takes a place; undefined when one was free, else a promise of the next place to free up (one waiter at a time). */
  take(): Promise<void> | undefined {
    if (this.used < this.size) {
      this.used++;
      return undefined;
    }
    return new Promise<void>((resolve) => (this.waiting = resolve));
  }

  /** Gives a place back: to the waiter, if there is one. */
  release(): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting();
      return;
    }
    if (--this.used === 0) this.drained?.();
  }

  /** Resolves once every place taken has been given back. */
  whenDrained(): Promise<void> {
    return this.used === 0 ? Promise.resolve() : new Promise((resolve) => (this.drained = resolve));
  }
}
