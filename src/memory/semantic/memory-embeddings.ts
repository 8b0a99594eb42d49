import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { EmbeddingModel } from 'ai';
import { ModelProviders } from '../../models/model-providers';

/** How many texts one call to the provider embeds at most (the AI SDK splits further if the provider wants). */
const BATCH = 256;

/**
 * Texts to vectors by `EMBEDDING_MODEL`, through the AI SDK's `embedMany`. Every vector is made unit length, so
 * that an inner product is a cosine similarity. The vectors of items' texts are kept in a cache of their own
 * (`embeddings.sqlite` in the data folder, by model and the text's SHA-256), which the read models' rebuild leaves
 * alone: a rebuild or a restart embeds nothing it embedded before, and pays the provider nothing again.
 */
export class MemoryEmbeddings {
  private readonly model: EmbeddingModel;
  private readonly cache: Database.Database;
  private readonly statements: {
    get: Database.Statement<[string, Buffer], { vector: Buffer }>;
    put: Database.Statement<[string, Buffer, Buffer]>;
    drop: Database.Statement<[Buffer]>;
  };

  /** Throws (naming the variable to set) when the model's provider is not configured. */
  constructor(
    readonly modelId: string,
    providers: ModelProviders,
    /** The cache's file. */
    cacheFile: string,
  ) {
    this.model = providers.embedding(modelId);
    this.cache = new Database(cacheFile);
    this.cache.pragma('journal_mode = WAL');
    this.cache.pragma('synchronous = NORMAL');
    this.cache.exec(
      `CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, digest BLOB NOT NULL, vector BLOB NOT NULL,
         PRIMARY KEY (model, digest)) WITHOUT ROWID`,
    );
    this.statements = {
      get: this.cache.prepare('SELECT vector FROM embeddings WHERE model = ? AND digest = ?'),
      put: this.cache.prepare('INSERT OR REPLACE INTO embeddings (model, digest, vector) VALUES (?, ?, ?)'),
      drop: this.cache.prepare('DELETE FROM embeddings WHERE digest = ?'),
    };
    this.cache.pragma('secure_delete = ON');
  }

  /** The vectors of items' texts, in order: from the cache, or from the provider (then cached). */
  async ofItems(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const digests = texts.map((text) => createHash('sha256').update(text).digest());
    const vectors: Array<Float32Array | undefined> = digests.map((digest) => {
      const row = this.statements.get.get(this.modelId, digest);
      return row && new Float32Array(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength / 4).slice();
    });
    const missing = vectors.flatMap((vector, i) => (vector ? [] : [i]));
    for (let start = 0; start < missing.length; start += BATCH) {
      const batch = missing.slice(start, start + BATCH);
      const embedded = await this.embed(
        batch.map((i) => texts[i]),
        signal,
      );
      this.cache.transaction(() => {
        batch.forEach((i, n) => {
          vectors[i] = embedded[n];
          this.statements.put.run(this.modelId, digests[i], Buffer.from(embedded[n].buffer));
        });
      })();
    }
    return vectors as Float32Array[];
  }

  /** The vector of a search's query (not cached: queries are many and rarely asked twice). */
  async ofQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    return (await this.embed([text], signal))[0];
  }

  /** The text's vectors are deleted from the cache, under every model. */
  forget(text: string): void {
    this.statements.drop.run(createHash('sha256').update(text).digest());
  }

  close(): void {
    this.cache.close();
  }

  private async embed(values: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { embedMany } = require('ai') as typeof import('ai');
    // The providers' fetch retries 429 and 5xx already (MODEL_MAX_RETRIES).
    const { embeddings } = await embedMany({ model: this.model, values, maxRetries: 0, abortSignal: signal });
    return embeddings.map(unit);
  }
}

/** The vector scaled to length 1 (a zero vector stays zero, and matches nothing). */
function unit(vector: number[]): Float32Array {
  const result = Float32Array.from(vector);
  let sum = 0;
  for (const x of result) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < result.length; i++) result[i] /= norm;
  return result;
}
