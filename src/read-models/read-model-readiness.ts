import { Injectable } from '@nestjs/common';
import { AppliedEvents } from './applied-events';
import { ProjectionRunner } from './projection-runner';
import { ReadYourWrites } from './read-your-writes';

/** Whether the read models show the store's latest events: the readiness signal of this instance. */
export interface Readiness {
  /** True when the read models follow the store and hold every write this instance made. */
  ready: boolean;
  /** `following`: up to date; `behind`: catching up or cut off from the store; `stopped`: failed for good. */
  readModels: 'following' | 'behind' | 'stopped';
  position: bigint;
}

/** The readiness check behind `/health` and `/health/ready`. */
@Injectable()
export class ReadModelReadiness {
  constructor(
    private readonly runner: ProjectionRunner,
    private readonly applied: AppliedEvents,
    private readonly writes: ReadYourWrites,
  ) {}

  /** False once the projections have failed for good. */
  get healthy(): boolean {
    return !this.runner.failed;
  }

  readiness(): Readiness {
    const { position } = this.applied;
    const readModels = this.runner.failed
      ? 'stopped'
      : !this.runner.caughtUp || this.runner.dropped || position < this.writes.awaited
        ? 'behind'
        : 'following';
    return { ready: readModels === 'following', readModels, position };
  }
}
