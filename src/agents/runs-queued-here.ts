import { Injectable, Logger } from '@nestjs/common';
import type { AgentRunAggregate } from './agent-run';

/** A run this process has just queued, as its queueing command left it. */
export interface RunQueuedHere {
  run: AgentRunAggregate;
  /** The run stream's revision after its queueing (the claim appends expecting it). */
  revision: bigint;
  /** The log position of its `AgentRunQueued`. */
  position: bigint;
  traceparent?: string;
}

/**
 * Runs queued in this process go straight to the local executor, without waiting for its subscription to
 * bring their `AgentRunQueued` back. The executor still claims each run through the log, so a run that another
 * instance claims first is not executed here.
 */
@Injectable()
export class RunsQueuedHere {
  private readonly logger = new Logger(RunsQueuedHere.name);
  private listener?: (queued: RunQueuedHere) => void;

  /** The local executor takes the runs queued from now on (one taker). */
  takeWith(listener: (queued: RunQueuedHere) => void): void {
    this.listener = listener;
  }

  /** Never throws: the run is recorded, and the log brings it to an executor should the hand-off fail. */
  queued(queued: RunQueuedHere): void {
    try {
      this.listener?.(queued);
    } catch (error) {
      this.logger.warn(`Run ${queued.run.id} is left to the log: ${String(error)}`);
    }
  }
}
