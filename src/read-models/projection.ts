import { RecordedEvent } from '../event-store/event-store';

/** Turns events into read-model rows. `apply` runs inside the runner's transaction, with the checkpoint. */
export interface Projection {
  readonly name: string;
  /**
   * The event types `apply` acts on, if it names them: it is handed only those, and when every projection names
   * its own, the catch-up at start asks the store for these types only, rather than reading and decoding events
   * that no projection uses.
   */
  readonly eventTypes?: readonly string[];
  apply(event: RecordedEvent): void;
  /** When present, the runner hands it each batch whole rather than calling `apply` per event. */
  applyBatch?(events: RecordedEvent[]): void;
}
