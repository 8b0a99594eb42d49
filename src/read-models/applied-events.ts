import { Injectable, Logger } from '@nestjs/common';
import { RecordedEvent } from '../event-store/event-store';

type Listener = (events: RecordedEvent[]) => void;

/**
 * The after-commit bus: each batch of events the read models have applied, told to the listeners once it has
 * committed (the scheduler, StreamWatch, cancels, metrics), and how far the read models have got.
 */
@Injectable()
export class AppliedEvents {
  private readonly logger = new Logger(AppliedEvents.name);
  private readonly listeners: Listener[] = [];
  /** Every event up to here is in the read models. */
  position = 0n;

  /** `listener` hears of each batch applied from now on. */
  onApplied(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** The read models start from `position`, which their checkpoints hold. */
  startAt(position: bigint): void {
    this.position = position;
  }

  /** A batch has committed: the read models are at its last event. */
  applied(events: RecordedEvent[]): void {
    this.position = events[events.length - 1].position;
    // A listener that fails must not stop the read models, nor keep the batch from the other listeners.
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch (error) {
        this.logger.error(
          `A listener of the read models failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
