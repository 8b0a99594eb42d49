/**
 * The positions a consumer has been handed but not finished yet, so that acknowledgements arriving out of order
 * move its checkpoint only up to just before the lowest unfinished one (Eventuous's commit-position sequence).
 * Positions are held in the order the log hands them out.
 */
export class CommitPositionSequence {
  /** Held positions, ascending; those before `first` are finished. */
  private held: bigint[] = [];
  private first = 0;
  /** Finished while a lower position was still unfinished. */
  private readonly finishedEarly = new Set<bigint>();
  private passed: bigint;

  /** `start`: the checkpoint the consumer starts from. */
  constructor(start: bigint) {
    this.passed = start;
  }

  /** The checkpoint may move to here: just before the lowest unfinished position, else the last one passed. */
  get committable(): bigint {
    return this.first < this.held.length ? this.held[this.first] - 1n : this.passed;
  }

  /** The last position handed out. */
  get last(): bigint {
    return this.passed;
  }

  /** Every event up to `position` has been handed out; those not held are done with. */
  pass(position: bigint): void {
    if (position > this.passed) this.passed = position;
  }

  /** The event at `position` is unfinished until `finish(position)`. */
  hold(position: bigint): void {
    this.held.push(position);
  }

  finish(position: bigint): void {
    if (this.held[this.first] !== position) {
      this.finishedEarly.add(position);
      return;
    }
    this.first++;
    while (this.first < this.held.length && this.finishedEarly.delete(this.held[this.first])) this.first++;
    // Drops the finished head now and then, so a long-running consumer does not keep every position it held.
    if (this.first > 1024 && this.first * 2 > this.held.length) {
      this.held = this.held.slice(this.first);
      this.first = 0;
    }
  }
}
