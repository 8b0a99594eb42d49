import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AppliedEvents } from './applied-events';

interface Waiter {
  position: bigint;
  resolve(reached: boolean): void;
}

/**
 * A write answers once the read models show it: `waitFor` the position it appended, bounded by
 * `READ_YOUR_WRITES_TIMEOUT_MS`, so that a read right after it (on this instance) sees it.
 */
@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger(ReadYourWrites.name);
  private waiters: Waiter[] = [];
  /** The highest position a write of this instance waited for: read models below it are behind. */
  awaited = 0n;

  constructor(
    private readonly applied: AppliedEvents,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'readYourWritesTimeoutMs'>,
  ) {
    applied.onApplied(() => this.release());
  }

  /** Waits until the read models include `position`; false if that took too long. */
  waitFor(position: bigint | undefined, timeoutMs = this.config.readYourWritesTimeoutMs): Promise<boolean> {
    if (position === undefined) return Promise.resolve(true);
    if (position > this.awaited) this.awaited = position;
    if (this.applied.position >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.logger.warn(`Read models did not reach position ${position} within ${timeoutMs} ms`);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    if (this.waiters.length === 0) return;
    const { position } = this.applied;
    const reached = this.waiters.filter((w) => w.position <= position);
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const waiter of reached) waiter.resolve(true);
  }
}
