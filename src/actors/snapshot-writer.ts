import { Logger } from '@nestjs/common';
import { EventStore, StreamSnapshot } from '../event-store/event-store';

/**
 * Writes the actors' snapshots off the request path: after the command that made one due has answered, at most
 * one at a time per stream (whichever actor asks), and a failure is logged, never thrown: a snapshot is a cache.
 */
export class SnapshotWriter {
  private readonly logger = new Logger(SnapshotWriter.name);
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly store: EventStore) {}

  /**
   * Starts writing the snapshot that `take` makes (on a later turn of the event loop), unless one of the stream is
   * being written: then it returns false and the caller asks again later.
   */
  write(stream: string, take: () => StreamSnapshot): boolean {
    if (this.writing.has(stream)) return false;
    const written = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.store.writeSnapshot(stream, take()))
      .catch((error: unknown) => this.logger.warn(`Could not write a snapshot of ${stream}: ${String(error)}`))
      .finally(() => this.writing.delete(stream));
    this.writing.set(stream, written);
    return true;
  }

  /** Resolves once every snapshot started so far is written or has failed. */
  async settled(): Promise<void> {
    while (this.writing.size) await Promise.all(this.writing.values());
  }
}
