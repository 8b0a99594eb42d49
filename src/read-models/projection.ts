import { RecordedEvent } from '../event-store/event-store';

/** Turns events into read-model rows. `apply` runs inside the runner's transaction, with the checkpoint. */
export interface Projection {
  readonly name: string;
  apply(event: RecordedEvent): void;
}
