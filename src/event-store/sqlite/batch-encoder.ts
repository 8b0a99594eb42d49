/**
 * Encodes the appends of a commit for the writer thread (see WriterBatch in writer-protocol.ts), and decodes them
 * again for the live subscriptions once the commit is written.
 */
import { EventMetadata, StreamAppend } from '../event-store';
import {
  MAX_MEMBERS_WRITTEN_HERE,
  MAX_WRITTEN_HERE,
  NOT_PLAIN,
  NO_ROOM,
  isOmitted,
  isPlainObject,
  writeJson,
  writeText,
} from './json-bytes';
import { DecodedRequest, WriterBatch } from './writer-protocol';

const FIRST_CAPACITY = 16 * 1024;

/** Within one append, the bytes of each large member already written (see BatchEncoder.writeData). */
type SharedValues = Map<object, { from: number; length: number }>;

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
      const shared: SharedValues = new Map();
      for (const { stream, expected, events } of parts) {
        shape.push(events.length);
        this.write(stream);
        this.write(typeof expected === 'bigint' ? expected.toString() : expected);
        for (const event of events) {
          this.write(event.id);
          this.write(event.type);
          this.writeData(event.data, shared);
          if (event.metadata === metadata) this.repeat(metadataAt, metadataLength);
          else {
            metadata = event.metadata;
            metadataAt = this.at;
            this.writeData(metadata, shared);
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

  /** Adds what `other` encoded between two of its marks, as it is (an encoding holds no offsets, only lengths). */
  copyFrom(other: BatchEncoder, from: EncoderMark, to: EncoderMark): void {
    const length = to.at - from.at;
    if (this.at + length > this.bytes.length) this.growBy(length);
    other.bytes.copy(this.bytes, this.at, from.at, to.at);
    this.at += length;
    for (let i = from.shape; i < to.shape; i++) this.shape.push(other.shape[i]);
    for (let i = from.lengths; i < to.lengths; i++) this.lengths.push(other.lengths[i]);
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
    const start = this.at;
    this.putText(text);
    this.written(start);
  }

  /**
   * Writes JSON.stringify(data) as the next string. A large plain object is written member by member, so that a
   * large member another event of the append shares (a run's input, on its trigger and on its queued run) is
   * serialised once, then its bytes copied.
   */
  private writeData(data: unknown, shared: SharedValues): void {
    const start = this.at;
    if (!this.putJson(data) && !this.putMembers(data, shared)) this.putText(JSON.stringify(data));
    this.written(start);
  }

  /**
   * Puts the members of a large plain object, the large ones through `shared`; false, having put nothing, for any
   * other value, and for an object of more members than json-bytes.ts walks (JSON.stringify writes those faster).
   */
  private putMembers(data: unknown, shared: SharedValues): boolean {
    if (!isPlainObject(data)) return false;
    const start = this.at;
    this.putText('{');
    let first = true;
    let members = 0;
    for (const key in data) {
      if (++members > MAX_MEMBERS_WRITTEN_HERE) {
        this.at = start;
        return false;
      }
      const member = data[key];
      if (!Object.hasOwn(data, key) || isOmitted(member)) continue;
      this.putText(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      const known = typeof member === 'object' && member !== null && shared.get(member);
      if (known) this.putCopy(known.from, known.length);
      else if (!this.putJson(member)) {
        const from = this.at;
        this.putText(JSON.stringify(member));
        if (typeof member === 'object' && member !== null) shared.set(member, { from, length: this.at - from });
      }
    }
    this.putText('}');
    return true;
  }

  /** Puts JSON.stringify(value) where this file's writer can (see json-bytes.ts); false where it cannot. */
  private putJson(value: unknown): boolean {
    let end: number;
    // Out of room, the buffer grows by at least the largest value written here, so that the next try tells a
    // large value at once (each try walks it: for one of 70,000 keys, that is milliseconds).
    while ((end = writeJson(value, this.bytes, this.at)) === NO_ROOM) this.growBy(MAX_WRITTEN_HERE);
    if (end === NOT_PLAIN) return false;
    this.at = end;
    return true;
  }

  private putText(text: string): void {
    if (typeof text !== 'string') throw new TypeError(`cannot store ${String(text)} as text`);
    let end: number;
    while ((end = writeText(text, this.bytes, this.at)) === NO_ROOM) this.growBy(3 * text.length);
    this.at = end;
  }

  /** Puts the `length` bytes at `from` once more. */
  private putCopy(from: number, length: number): void {
    if (this.at + length > this.bytes.length) this.growBy(length);
    this.bytes.copyWithin(this.at, from, from + length);
    this.at += length;
  }

  /** The `length` bytes at `from` once more, as the next string. */
  private repeat(from: number, length: number): void {
    const start = this.at;
    this.putCopy(from, length);
    this.written(start);
  }

  /** The string from `start` to where the encoding stands is encoded. */
  private written(start: number): void {
    this.lengths.push(this.at - start);
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
