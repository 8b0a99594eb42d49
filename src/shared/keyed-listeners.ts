/** Listeners by key (a stream, a run), each told the values published for its key; a key without one is dropped. */
export class KeyedListeners<Value> {
  private readonly listeners = new Map<string, Set<(value: Value) => void>>();

  /** Whether anyone listens at all. */
  get empty(): boolean {
    return this.listeners.size === 0;
  }

  /** Whether anyone listens for `key`. */
  has(key: string): boolean {
    return this.listeners.has(key);
  }

  publish(key: string, value: Value): void {
    this.listeners.get(key)?.forEach((listener) => listener(value));
  }

  /** Calls `listener` with each value published for `key` from now on; returns the function that stops it. */
  subscribe(key: string, listener: (value: Value) => void): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }
}
