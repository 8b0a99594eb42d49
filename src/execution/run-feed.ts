import { Injectable } from '@nestjs/common';

type DeltaListener = (text: string) => void;

/**
 * The text of runs executing in this instance, as the model writes it. It is not stored: a run's stream shows
 * it live to whoever watches then; the final output is recorded with the run's end.
 */
@Injectable()
export class RunFeed {
  private readonly listeners = new Map<string, Set<DeltaListener>>();

  publish(runId: string, text: string): void {
    this.listeners.get(runId)?.forEach((listener) => listener(text));
  }

  subscribe(runId: string, listener: DeltaListener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
    };
  }
}
