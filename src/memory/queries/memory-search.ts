import { Injectable } from '@nestjs/common';
import { DomainError } from '../../domain/decider';
import { Clock } from '../../shared/clock';
import { MemoryVectors } from '../semantic/memory-vectors';
import { matchExpression } from './memory-text';
import { MemoryFilter, MemoryReadModel, MemoryView } from './memory.read-model';

/** By words (BM25), by meaning (cosine similarity of embeddings), or both fused by their ranks. */
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface MemorySearchRequest {
  namespace: string;
  query: string;
  limit: number;
  filter: MemoryFilter;
  /** Unset: `hybrid` when `EMBEDDING_MODEL` is set, else `keyword`. */
  mode?: SearchMode;
}

export type MemoryHit = MemoryView & { score: number };

/** Reciprocal rank fusion's constant: how little the first ranks count more than the next. */
const RRF_K = 60;
/** How many more candidates than asked for a mode gathers before the filter and the expiry leave some out. */
const CANDIDATES = 4;

/**
 * Memory search in its three modes (docs/memory.md). Keyword search is the read model's FTS5 index; semantic search
 * asks the vector index for the nearest items and reads them from the read model (dropping the expired and those
 * the filter leaves out, and asking again for more when too few remain); hybrid fuses the two lists by reciprocal
 * rank (each hit scores 1/(60 + rank) in each list it is in).
 */
@Injectable()
export class MemorySearch {
  constructor(
    private readonly memory: MemoryReadModel,
    private readonly vectors: MemoryVectors,
    private readonly clock: Clock,
  ) {}

  /** Whether the semantic and hybrid modes are there (`EMBEDDING_MODEL` is set). */
  get semantic(): boolean {
    return this.vectors.enabled;
  }

  async search(request: MemorySearchRequest, signal?: AbortSignal): Promise<MemoryHit[]> {
    const mode = request.mode ?? (this.semantic ? 'hybrid' : 'keyword');
    if (mode !== 'keyword' && !this.semantic) {
      const message = `${mode} search needs an embedding model: set EMBEDDING_MODEL (or search with mode keyword)`;
      throw new DomainError('conflict', message, [], 'embeddings-not-configured');
    }
    if (mode === 'keyword') return this.byWords(request, request.limit);
    if (mode === 'semantic') return this.byMeaning(request, request.limit, signal);
    const wanted = request.limit * CANDIDATES;
    const [words, meaning] = await Promise.all([
      this.byWords(request, wanted),
      this.byMeaning(request, wanted, signal),
    ]);
    return fused([words, meaning], request.limit);
  }

  private byWords({ namespace, query, filter }: MemorySearchRequest, limit: number): MemoryHit[] {
    const match = matchExpression(query);
    return match ? this.memory.search(namespace, match, filter, limit, this.clock.now()) : [];
  }

  private async byMeaning(request: MemorySearchRequest, limit: number, signal?: AbortSignal): Promise<MemoryHit[]> {
    let vector: Float32Array;
    try {
      vector = await this.vectors.embedQuery(request.query, signal);
    } catch (error) {
      const message = `The embedding model could not embed the query: ${(error as Error).message}`;
      throw new DomainError('upstream_failed', message, [], 'embedding-failed');
    }
    for (let asked = limit * CANDIDATES; ; asked *= CANDIDATES) {
      const hits = await this.vectors.nearest(request.namespace, vector, asked);
      const items = new Map(
        this.memory
          .byIds(
            hits.map((hit) => hit.id),
            request.filter,
            this.clock.now(),
          )
          .map((item) => [item.id, item]),
      );
      const found = hits.flatMap(({ id, score }) => {
        const item = items.get(id);
        if (!item) return [];
        const { id: _row, ...view } = item;
        return [{ ...view, score }];
      });
      // Fewer hits than asked for: there are no more to find.
      if (found.length >= limit || hits.length < asked) return found.slice(0, limit);
    }
  }
}

/** The lists fused by reciprocal rank, best first; an item's score is the sum of 1/(60 + rank) over the lists. */
function fused(lists: MemoryHit[][], limit: number): MemoryHit[] {
  const scores = new Map<string, MemoryHit>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const address = `${hit.namespace}\u0000${hit.key}`;
      const known = scores.get(address);
      const score = (known?.score ?? 0) + 1 / (RRF_K + rank + 1);
      scores.set(address, { ...(known ?? hit), score });
    });
  }
  return [...scores.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}
