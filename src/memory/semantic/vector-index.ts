import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const SCRIPT = join(__dirname, 'vector-index.worker.js');

/** One item found by meaning: its row in memory_items, and the cosine similarity of its vector to the query's. */
export interface VectorHit {
  id: number;
  score: number;
}

interface Pending {
  resolve(hits: VectorHit[]): void;
  reject(error: Error): void;
}

/**
 * The memory items' vectors, held and searched on a worker thread (vector-index.worker.js), so that a search never
 * stalls the event loop. Messages to the thread are handled in the order they are sent: a search sent after a put
 * sees the put. If the thread dies, its vectors are gone: `lost` is called, and the next put starts a new thread.
 */
export class VectorIndex {
  private readonly logger = new Logger(VectorIndex.name);
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private lastId = 0;

  constructor(
    /** How many threads one search may use (`EMBEDDING_SEARCH_THREADS`). */
    private readonly threads: number,
    private readonly lost: () => void,
  ) {}

  /** Adds the vectors (unit length) of the items, or replaces those they had. */
  put(items: Array<{ id: number; namespace: string; vector: Float32Array }>): void {
    if (!items.length) return;
    const vectors = new Float32Array(items.length * items[0].vector.length);
    items.forEach((item, i) => vectors.set(item.vector, i * item.vector.length));
    const message = { op: 'put', ids: items.map((i) => i.id), namespaces: items.map((i) => i.namespace), vectors };
    this.started().postMessage(message, [vectors.buffer]);
  }

  remove(ids: number[]): void {
    if (ids.length) this.started().postMessage({ op: 'remove', ids });
  }

  /** The `count` items of `namespace` and those below it nearest to `vector`, best first. */
  search(namespace: string, vector: Float32Array, count: number): Promise<VectorHit[]> {
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.started().postMessage({ op: 'search', id, namespace, vector, count });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(SCRIPT, { workerData: { threads: this.threads } });
    worker.unref();
    worker.on('message', (answer: { id?: number; ids?: number[]; scores?: number[]; failure?: string }) => {
      const pending = answer.id === undefined ? undefined : this.pending.get(answer.id);
      if (answer.id !== undefined) this.pending.delete(answer.id);
      if (answer.failure) {
        if (pending) pending.reject(new Error(answer.failure));
        else this.logger.error(`The vector index refused a change: ${answer.failure}`);
      } else pending?.resolve(answer.ids!.map((id, i) => ({ id, score: answer.scores![i] })));
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.logger.error(`The vector index's thread stopped (${error.message}); its vectors are loaded again`);
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
      this.lost();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
