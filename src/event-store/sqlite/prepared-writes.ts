import { ExpectedRevision, PreparedAppends, StreamAppend } from '../event-store';
import { BatchEncoder, EncoderMark } from './batch-encoder';

/**
 * A batch's appends encoded ahead of their commit (SqliteStore.prepareBatch), possibly in steps: when they go, the
 * writer takes the encoding for its next commit (or copies the bytes of those kept), which is all that is left to
 * do for them at that time. Each append commits once.
 */
export class PreparedWrites implements PreparedAppends {
  private encoder: BatchEncoder | undefined = new BatchEncoder();
  /** Where each append's encoding starts, and last where the encoding ends. */
  private readonly marks: EncoderMark[] = [];
  /** Each append's streams and expectations, one after the other (PendingAppend.parts). */
  readonly parts: Array<Array<string | ExpectedRevision>> = [];
  /** Why an append cannot go (data that JSON cannot express), by its index. */
  readonly failures = new Map<number, unknown>();
  private committed = new Uint8Array(0);

  /** Encodes more appends, after those already here. */
  add(appends: StreamAppend[][]): void {
    const encoder = this.encoder;
    if (!encoder || this.committed.length) throw new Error('Appends are prepared before any of them commits');
    this.marks.pop();
    for (const parts of appends) {
      this.marks.push(encoder.mark());
      const index = this.parts.length;
      if (parts.length === 0 || parts.some((part) => part.events.length === 0))
        this.failures.set(index, new Error('an append needs at least one event per stream'));
      else {
        try {
          encoder.add(parts);
        } catch (error) {
          this.failures.set(index, error);
        }
      }
      const streams: Array<string | ExpectedRevision> = [];
      for (const { stream, expected } of parts) streams.push(stream, expected);
      this.parts.push(streams);
    }
    this.marks.push(encoder.mark());
  }

  get count(): number {
    return this.parts.length;
  }

  /** Bytes encoded. */
  get size(): number {
    return this.encoder?.size ?? 0;
  }

  /** Marks the appends `keep` names as committed; throws, marking none, if one of them already was. */
  commit(keep: boolean[]): void {
    if (this.committed.length === 0) this.committed = new Uint8Array(this.count);
    for (let index = 0; index < this.count; index++)
      if (keep[index] && this.committed[index]) throw new Error('A prepared append commits once');
    for (let index = 0; index < this.count; index++) if (keep[index]) this.committed[index] = 1;
  }

  /** Whether `keep` takes every append, and every one could be encoded: the encoding can go as it is. */
  whole(keep: boolean[]): boolean {
    if (this.failures.size) return false;
    for (let index = 0; index < this.count; index++) if (!keep[index]) return false;
    return true;
  }

  /** The encoding itself, handed over whole (see `whole`): nothing is copied, and it is no longer here. */
  takeEncoder(): BatchEncoder {
    const encoder = this.encoder!;
    this.encoder = undefined;
    return encoder;
  }

  /**
   * Copies the encoding of the appends `keep` marks (and that could be encoded) into `encoder`, a run of
   * consecutive ones at a time; `each` hears of every append copied, in order.
   */
  copyKept(encoder: BatchEncoder, keep: boolean[], each: (index: number) => void): void {
    let run = -1;
    for (let index = 0; index <= this.count; index++) {
      const kept = index < this.count && keep[index] && !this.failures.has(index);
      if (kept) {
        if (run < 0) run = index;
        each(index);
      } else if (run >= 0) {
        encoder.copyFrom(this.encoder!, this.marks[run], this.marks[index]);
        run = -1;
      }
    }
  }
}
