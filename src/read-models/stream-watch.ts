import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordedEvent } from '../event-store/event-store';
import { ProjectionRunner } from './projection-runner';

type Listener = (event: RecordedEvent) => void;

/**
 * Follows streams as the read models apply them, whichever instance wrote the events (run streams and
 * `Prefer: wait` use it). A listener is called once the read models show the event.
 */
@Injectable()
export class StreamWatch implements OnModuleInit {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.onBatchApplied((events) => {
      if (this.listeners.size === 0) return;
      for (const event of events) this.listeners.get(event.stream)?.forEach((listener) => listener(event));
    });
  }

  /** Calls `listener` with each event of `stream` applied from now on; returns the function that stops it. */
  watch(stream: string, listener: Listener): () => void {
    let set = this.listeners.get(stream);
    if (!set) this.listeners.set(stream, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(stream) === set) this.listeners.delete(stream);
    };
  }

  /** Resolves true once `hasEnded()` holds (checked now and after each event of `stream`), false after `timeoutMs`. */
  until(stream: string, hasEnded: () => boolean, timeoutMs: number): Promise<boolean> {
    if (hasEnded()) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (ended: boolean) => {
        clearTimeout(timer);
        stop();
        resolve(ended);
      };
      const stop = this.watch(stream, () => {
        if (hasEnded()) finish(true);
      });
      const timer = setTimeout(() => finish(false), timeoutMs);
    });
  }
}
