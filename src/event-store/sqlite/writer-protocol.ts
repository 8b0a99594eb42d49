/**
 * The messages between the SQLite store and its writer thread (writer.worker.js decodes and encodes the
 * other side). A batch of thousands of appends travels as one buffer of UTF-8 text and two arrays of numbers,
 * which a worker message hands over at once, rather than as an object per event, which it would copy (and
 * collect) one by one. Each append is encoded into the batch as it is made (batch-encoder.ts): no object per event
 * is kept for it.
 */

/**
 * A batch: `shape` holds, per request, its number of parts and then each part's number of events; `bytes` holds,
 * in that order, each part's stream and expectation ('any' | 'no_stream' | 'stream_exists' | '<revision>'), then
 * each of its events' id, type, data and metadata (JSON), one after the other, as UTF-8; `lengths` holds the
 * length in bytes of each of those strings. Every event is recorded at `recordedAt`.
 */
export interface WriterBatch {
  recordedAt: number;
  shape: Int32Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

/** One append of a batch, decoded again (for the live subscriptions, once it is committed). */
export interface DecodedRequest {
  parts: Array<{
    stream: string;
    expected: string;
    events: Array<{ id: string; type: string; data: string; metadata: string }>;
  }>;
}

export type WriterFailure = { code?: string; message: string };

export type WriterOutcome =
  | { ok: Array<{ nextRevision: number; position: number }> }
  | { conflict: { part: number; actual: number | null } }
  | { failure: WriterFailure };

/**
 * The writer's answer: per request, in `results`, OK (0) then each part's next revision and position, CONFLICT
 * (1) then the part and the stream's actual revision (-1: none), or FAILURE (2) then an index into `failures`;
 * and the batch's `bytes`, handed back (the writer has read them) so that this side may decode them again.
 */
export type WriterReply =
  | { results: Float64Array; failures: WriterFailure[]; headBefore: number; headAfter: number; bytes: Uint8Array }
  | { batchFailure: WriterFailure };

const OK = 0;
const CONFLICT = 1;

/** The outcome of each request of the batch, in order; `partCounts`: each request's number of parts. */
export function decodeOutcomes(
  { results, failures }: { results: Float64Array; failures: WriterFailure[] },
  partCounts: number[],
): WriterOutcome[] {
  let at = 0;
  return partCounts.map((parts) => {
    const kind = results[at++];
    if (kind === OK) {
      const ok: Array<{ nextRevision: number; position: number }> = [];
      for (let part = 0; part < parts; part++, at += 2)
        ok.push({ nextRevision: results[at], position: results[at + 1] });
      return { ok };
    }
    if (kind === CONFLICT) {
      const conflict = { part: results[at], actual: results[at + 1] === -1 ? null : results[at + 1] };
      at += 2;
      return { conflict };
    }
    return { failure: failures[results[at++]] };
  });
}
