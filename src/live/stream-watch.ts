import { Injectable } from '@nestjs/common';
import { RunStatus, isEnded } from '../domain/run';
import { RecordedEvent } from '../event-store/event-store';
import { AppliedEvents } from '../read-models/applied-events';
import { KeyedListeners } from '../shared/keyed-listeners';

/**
 * Follows streams as the read models apply them, whichever instance wrote the events (run streams and
 * `Prefer: wait` use it). A listener is called once the read models show the event.
 */
@Injectable()
export class StreamWatch {
  private readonly listeners = new KeyedListeners<RecordedEvent>();
  /** Listeners of every event of a type, whatever its stream. */
  private readonly typeListeners = new KeyedListeners<RecordedEvent>();
  /** The waits in progress (`until`), each ended early by `release`. */
  private readonly waits = new Set<(ended: boolean) => void>();
  private released = false;

  constructor(private readonly applied: AppliedEvents) {
    applied.onApplied((events) => {
      if (!this.listeners.empty) for (const event of events) this.listeners.publish(event.stream, event);
      if (!this.typeListeners.empty) for (const event of events) this.typeListeners.publish(event.type, event);
    });
  }

  /** Calls `listener` with each event of `stream` applied from now on; returns the function that stops it. */
  watch(stream: string, listener: (event: RecordedEvent) => void): () => void {
    return this.listeners.subscribe(stream, listener);
  }

  /** Whether the read models show the event at `position` (its listeners have heard of it, or will not). */
  shows(position: bigint): boolean {
    return position <= this.applied.position;
  }

  /** How many waits are in progress. */
  get waiting(): number {
    return this.waits.size;
  }

  /**
   * The service is stopping: every wait in progress ends now, and any later one at once, so that each waiting
   * request (`Prefer: wait`) is answered with its run as it stands before the server closes.
   */
  release(): void {
    this.released = true;
    for (const finish of [...this.waits]) finish(false);
  }

  /**
   * Resolves true once `hasEnded()` holds (checked now and after each event of `stream`, and of the types in
   * `alsoOn` on any stream), false after `timeoutMs` or once the service stops (`release`).
   */
  until(stream: string, hasEnded: () => boolean, timeoutMs: number, alsoOn: readonly string[] = []): Promise<boolean> {
    if (hasEnded()) return Promise.resolve(true);
    if (timeoutMs <= 0 || this.released) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (ended: boolean) => {
        clearTimeout(timer);
        stop();
        this.waits.delete(finish);
        resolve(ended || hasEnded());
      };
      this.waits.add(finish);
      const check = () => {
        if (hasEnded()) finish(true);
      };
      const stops = [this.watch(stream, check), ...alsoOn.map((type) => this.typeListeners.subscribe(type, check))];
      const stop = () => stops.forEach((stopOne) => stopOne());
      const timer = setTimeout(() => finish(false), timeoutMs);
    });
  }

  /**
   * Waits, bounded, for a run to end as the read models show it (`Prefer: wait`, cancel): `current()` is the run
   * as they show it now, its events on `stream`. The run as it stands then, and whether it has ended. A waiting run
   * that `orWaiting` says waits for a person answers too (it may wait for hours); events of the types in `alsoOn`,
   * on other streams, may make it so (a descendant run's request for approval).
   */
  async runEnding<Run extends { status: RunStatus }>(
    stream: string,
    current: () => Run,
    timeoutMs: number,
    orWaiting: (run: Run) => boolean = () => false,
    alsoOn: readonly string[] = [],
  ): Promise<{ run: Run; ended: boolean }> {
    const done = (run: Run) => isEnded(run.status) || (run.status === 'waiting' && orWaiting(run));
    // The run as the last check read it, which `until` made just before it settled: the answer, without a read more.
    let last: Run | undefined;
    await this.until(stream, () => done((last = current())), timeoutMs, alsoOn);
    const run = last ?? current();
    return { run, ended: isEnded(run.status) };
  }
}
