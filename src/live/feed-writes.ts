// What the event feed writes to its sinks, and what bounds its catch-ups.
import { Slots } from '../shared/slots';

/** Bytes written to a sink in one write: several messages in one, but never much more than a socket buffers. */
export const CHUNK_BYTES = 64 * 1024;

/** Messages as one write: text joined as text, and anything with bytes as bytes. */
export function joined(parts: Array<string | Buffer>): string | Buffer {
  if (parts.length === 1) return parts[0];
  if (parts.every((part) => typeof part === 'string')) return parts.join('');
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

/** What bounds the catch-ups of all subscribers together (see `catchUp`). */
export interface CatchUpLimits {
  slots: Slots;
  /** The most one catch-up read holds, as the JSON of its events (it always holds one event). */
  sliceBytes: number;
  /** How long a sink may take to take in a slice before it is ended. */
  slowReaderMs: number;
}

/** Messages of a shape made into bytes once, for all of its subscribers: `count` of them, the last at `last`. */
export interface SharedChunk {
  bytes: Buffer;
  /** What a sink made of `bytes` for itself and the others (an HTTP chunk). */
  framed?: Buffer;
  count: number;
  last: bigint;
}

export function sharedChunks(messages: Array<[bigint, string]>): SharedChunk[] {
  const chunks: SharedChunk[] = [];
  let parts: string[] = [];
  let length = 0;
  messages.forEach(([position, text], i) => {
    parts.push(text);
    length += text.length;
    if (length < CHUNK_BYTES && i < messages.length - 1) return;
    chunks.push({ bytes: Buffer.from(parts.join('')), count: parts.length, last: position });
    parts = [];
    length = 0;
  });
  return chunks;
}
