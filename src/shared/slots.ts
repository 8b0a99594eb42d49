/**
 * A fixed number of slots for work that holds memory, taken in the order asked for: `acquire` resolves with the
 * slot's release. Slots are handed out one per turn of the event loop (each in a `setImmediate` of its own), so
 * that what each holder does first when it gets its slot (a read of the log, say) runs in a turn of its own: many
 * holders never add up to one long stall, and timers and sockets get their turn in between. Releasing twice frees
 * one slot only.
 */
export class Slots {
  private free: number;
  private readonly waiting: Array<(release: () => void) => void> = [];
  private handing = false;

  constructor(readonly size: number) {
    this.free = size;
  }

  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.handOut();
    });
  }

  /** Slots held now. */
  get taken(): number {
    return this.size - this.free;
  }

  /** Callers waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Gives the next in line a free slot in the next turn of the loop, then the next one in the turn after. */
  private handOut(): void {
    if (this.handing || this.free === 0 || this.waiting.length === 0) return;
    this.handing = true;
    setImmediate(() => {
      this.handing = false;
      const next = this.waiting.shift();
      if (next && this.free > 0) {
        this.free--;
        next(this.releaser());
      } else if (next) {
        this.waiting.unshift(next);
      }
      this.handOut();
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free++;
      this.handOut();
    };
  }
}
