import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { parseModelId } from '../../models/model-id';
import { ModelProviders } from '../../models/model-providers';
import { configuredSecrets } from '../../shared/redaction';
import { MemoryChange, MemoryReadModel } from '../queries/memory.read-model';
import { MemoryEmbeddings } from './memory-embeddings';
import { VectorHit, VectorIndex } from './vector-index';

/** How many changed items are embedded and sent to the index at a time. */
const BATCH = 256;
/** The waits between attempts after the provider failed, doubling from the first to the last. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;
/** How long a put waits for its item to be searchable by meaning before it answers anyway. */
const PUT_WAIT_MS = 10_000;

/**
 * Keeps the vector index in step with the memory read model when `EMBEDDING_MODEL` is set: every item put is
 * embedded (its text, as keyword search reads it) and its vector indexed; every item removed leaves the index. At
 * start, every item the read model holds is indexed again, from the embeddings cache. Changes wait in one map by
 * item, so an item changed twice before its turn is embedded once, as it stands. When the provider fails, the
 * changes wait and are tried again later; the items stay readable and found by their words meanwhile.
 */
@Injectable()
export class MemoryVectors implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MemoryVectors.name);
  private readonly embeddings?: MemoryEmbeddings;
  private readonly index?: VectorIndex;
  /** By item id: its text and namespace to embed, or null when it is to leave the index. */
  private readonly pending = new Map<number, { namespace: string; text: string } | null>();
  private readonly waiters = new Map<number, Array<() => void>>();
  private draining = false;
  private retryMs = FIRST_RETRY_MS;
  private retry?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly memory: MemoryReadModel,
  ) {
    const modelId = config.providers.embeddingModel;
    if (!modelId) return;
    const parsed = parseModelId(modelId);
    if (typeof parsed === 'string') throw new Error(`EMBEDDING_MODEL: ${parsed}`);
    if (parsed.provider === 'anthropic') {
      throw new Error(
        'EMBEDDING_MODEL: Anthropic has no embedding models; name an openai, ollama or openai-compatible one',
      );
    }
    const providers = new ModelProviders(config.providers, undefined, configuredSecrets(config));
    this.embeddings = new MemoryEmbeddings(modelId, providers, join(config.dataDir, 'embeddings.sqlite'));
    this.index = new VectorIndex(config.providers.embeddingSearchThreads, () => this.loadAll());
    memory.onChange((change) => this.changed(change));
  }

  /** Whether items are searched by meaning (`EMBEDDING_MODEL` is set). */
  get enabled(): boolean {
    return this.index !== undefined;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    this.logger.log(`Memory is searched by meaning too, with ${this.embeddings!.modelId}`);
    this.loadAll();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.retry);
    await this.index?.close();
    this.embeddings?.close();
  }

  /**
   * Resolves once the item as it stands is in the index (so that a search right after its put finds it), once
   * embedding it has failed for now (it is tried again later), or after PUT_WAIT_MS, whichever comes first.
   */
  async caughtUp(namespace: string, key: string): Promise<void> {
    const id = this.memory.idOf(namespace, key);
    if (id === undefined || !this.pending.has(id)) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]);
      timer = setTimeout(resolve, PUT_WAIT_MS);
    });
    clearTimeout(timer);
  }

  /** The vector of a query, from the provider. */
  embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    return this.embeddings!.ofQuery(query, signal);
  }

  /** The `count` items of the namespace and those below it nearest to the vector, best first. */
  nearest(namespace: string, vector: Float32Array, count: number): Promise<VectorHit[]> {
    return this.index!.search(namespace, vector, count);
  }

  private changed(change: MemoryChange): void {
    // A forgotten item's vector leaves the cache too: it says something of what the item held.
    if (change.removed && change.forgottenText !== undefined) this.embeddings!.forget(change.forgottenText);
    this.pending.set(change.id, change.removed ? null : { namespace: change.namespace, text: change.text });
    this.drainSoon();
  }

  /** Every item of the read model, to be indexed again (at start, or after the index's thread was lost). */
  private loadAll(): void {
    for (let after = 0; ;) {
      const rows = this.memory.texts(after, 10_000);
      if (!rows.length) break;
      for (const row of rows) if (!this.pending.has(row.id)) this.pending.set(row.id, row);
      after = rows[rows.length - 1].id;
    }
    this.drainSoon();
  }

  private drainSoon(): void {
    if (!this.draining && !this.retry) setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    if (this.draining || this.retry) return;
    this.draining = true;
    try {
      while (this.pending.size) {
        const batch = [...this.pending.entries()].slice(0, BATCH);
        await this.apply(batch);
        for (const [id, change] of batch) {
          // Changed again while this batch was embedded: that change is still to come, and its waiters wait for it.
          if (this.pending.get(id) !== change) continue;
          this.pending.delete(id);
          this.wake(id);
        }
        this.retryMs = FIRST_RETRY_MS;
      }
    } catch (error) {
      this.logger.warn(`Embedding memory items failed (tried again in ${this.retryMs / 1000} s): ${String(error)}`);
      for (const id of this.pending.keys()) this.wake(id);
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.drain();
      }, this.retryMs);
      this.retry.unref();
      this.retryMs = Math.min(LAST_RETRY_MS, this.retryMs * 2);
    } finally {
      this.draining = false;
    }
  }

  private async apply(batch: Array<[number, { namespace: string; text: string } | null]>): Promise<void> {
    this.index!.remove(batch.flatMap(([id, change]) => (change ? [] : [id])));
    const puts = batch.flatMap(([id, change]) => (change ? [{ id, ...change }] : []));
    if (!puts.length) return;
    const vectors = await this.embeddings!.ofItems(puts.map((put) => put.text));
    this.index!.put(puts.map((put, i) => ({ id: put.id, namespace: put.namespace, vector: vectors[i] })));
  }

  private wake(id: number): void {
    for (const resolve of this.waiters.get(id) ?? []) resolve();
    this.waiters.delete(id);
  }
}
