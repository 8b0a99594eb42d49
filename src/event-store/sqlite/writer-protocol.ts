/**
 * The messages between the SQLite store and its writer thread (writer.worker.js decodes and encodes the
 * other side). A batch of thousands of appends travels as one buffer of UTF-8 text and two arrays of numbers,
 * which a worker message hands over at once, rather than as an object per event, which it would copy (and
 * collect) one by one. Each append is encoded into the batch as it is made: no object per event is kept for it.
 */
import { EventMetadata, StreamAppend } from '../event-store';
import { MAX_WRITTEN_HERE, NOT_PLAIN, NO_ROOM, writeJson, writeText } from './json-bytes';

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
const FIRST_CAPACITY = 16 * 1024;

export interface EncoderMark {
  at: number;
  shape: number;
  lengths: number;
}

/** The appends of the next commit, encoded as they are made (see WriterBatch). */
export class BatchEncoder {
  private bytes: Buffer = Buffer.allocUnsafeSlow(FIRST_CAPACITY);
  private at = 0;
  private shape: number[] = [];
  private lengths: number[] = [];

  /** Bytes encoded so far. */
  get size(): number {
    return this.at;
  }

  /** Room for `bytes` more at least, in one step (a batch's appends grow the buffer once, not by doubling). */
  reserve(bytes: number): void {
    if (this.at + bytes > this.bytes.length) this.growBy(bytes);
  }

  /**
   * Adds one append (its parts all or nothing). Throws, having added nothing, when an event's data or metadata
   * has no JSON (a bigint, a cycle), so that such an append fails alone.
   */
  add(parts: StreamAppend[]): void {
    const before = this.mark();
    const { shape } = this;
    try {
      shape.push(parts.length);
      // Events of one command usually share their metadata object: it is serialised once, then its bytes copied.
      let metadata: EventMetadata | undefined;
      let metadataAt = 0;
      let metadataLength = 0;
      for (const { stream, expected, events } of parts) {
        shape.push(events.length);
        this.write(stream);
        this.write(typeof expected === 'bigint' ? expected.toString() : expected);
        for (const event of events) {
          this.write(event.id);
          this.write(event.type);
          this.writeJson(event.data);
          if (event.metadata === metadata) this.repeat(metadataAt, metadataLength);
          else {
            metadata = event.metadata;
            metadataAt = this.at;
            this.writeJson(metadata);
            metadataLength = this.at - metadataAt;
          }
        }
      }
    } catch (error) {
      this.truncate(before);
      throw error;
    }
  }

  /** Where the encoding stands: `truncate` takes it back there. */
  mark(): EncoderMark {
    return { at: this.at, shape: this.shape.length, lengths: this.lengths.length };
  }

  /** Drops what was added after `mark`. */
  truncate(mark: EncoderMark): void {
    this.at = mark.at;
    this.shape.length = mark.shape;
    this.lengths.length = mark.lengths;
  }

  /**
   * The batch for the writer thread, stamped `recordedAt`. Its bytes are this encoder's own buffer, to transfer
   * (not copy): the encoder takes no more appends, and decodes only once `handedBack` has its buffer again.
   */
  finish(recordedAt: number): WriterBatch {
    return {
      recordedAt,
      shape: Int32Array.from(this.shape),
      lengths: Int32Array.from(this.lengths),
      bytes: new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.at),
    };
  }

  /** The bytes `finish` handed over, back from the writer thread. */
  handedBack(bytes: Uint8Array): void {
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The appends again, as the writer reads them. */
  decode(): DecodedRequest[] {
    return decodeRequests(this.shape, this.lengths, this.bytes);
  }

  private write(text: string): void {
    if (typeof text !== 'string') throw new TypeError(`cannot store ${String(text)} as text`);
    let end: number;
    while ((end = writeText(text, this.bytes, this.at)) === NO_ROOM) this.growBy(3 * text.length);
    this.written(end);
  }

  /** Writes JSON.stringify(value), straight into the buffer where it is plain data. */
  private writeJson(value: unknown): void {
    let end: number;
    // Out of room, the buffer grows by at least the largest value written here, so that the next try tells a
    // large value at once (each try walks it: for one of 70,000 keys, that is milliseconds).
    while ((end = writeJson(value, this.bytes, this.at)) === NO_ROOM) this.growBy(MAX_WRITTEN_HERE);
    if (end === NOT_PLAIN) this.write(JSON.stringify(value));
    else this.written(end);
  }

  /** The `length` bytes at `from` once more, as the next string. */
  private repeat(from: number, length: number): void {
    if (this.at + length > this.bytes.length) this.growBy(length);
    this.bytes.copyWithin(this.at, from, from + length);
    this.written(this.at + length);
  }

  /** The string that ends at `end` is encoded. */
  private written(end: number): void {
    this.lengths.push(end - this.at);
    this.at = end;
  }

  private growBy(more: number): void {
    this.grow(Math.max(this.at + more, 2 * this.bytes.length));
  }

  private grow(capacity: number): void {
    const bigger = Buffer.allocUnsafeSlow(capacity);
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }
}

/** The appends of a batch (the same walk as writer.worker.js's). */
function decodeRequests(shape: ArrayLike<number>, lengths: ArrayLike<number>, bytes: Buffer): DecodedRequest[] {
  let at = 0;
  let piece = 0;
  const next = () => bytes.toString('utf8', at, (at += lengths[piece++]));
  const requests: DecodedRequest[] = [];
  for (let s = 0; s < shape.length;) {
    const parts: DecodedRequest['parts'] = [];
    for (let count = shape[s++]; count > 0; count--) {
      const eventCount = shape[s++];
      const stream = next();
      const expected = next();
      const events: DecodedRequest['parts'][number]['events'] = [];
      for (let e = 0; e < eventCount; e++) events.push({ id: next(), type: next(), data: next(), metadata: next() });
      parts.push({ stream, expected, events });
    }
    requests.push({ parts });
  }
  return requests;
}

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
