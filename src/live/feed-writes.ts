// What the event feed writes to its sinks, and what bounds its catch-ups.
import { RecordedEvent } from '../event-store/event-store';
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

/** Events waiting for the next flush, past which it comes at once (however the flushes are paced). */
const MAX_QUEUED_EVENTS = 10_000;

/** The events handed to the live feed and not yet written, with their messages where they were made. */
export class LiveQueue {
  events: RecordedEvent[] = [];
  /** Each event's message, made as it came if a live subscriber takes it (undefined: made at the flush, if needed). */
  messages: Array<string | undefined> = [];
  private bytes = 0;

  push(event: RecordedEvent, message: string | undefined): void {
    this.events.push(event);
    this.messages.push(message);
    this.bytes += message?.length ?? 0;
  }

  /** A subscriber's write for one flush is not to be much over CHUNK_BYTES: once that much waits, it goes. */
  get full(): boolean {
    return this.bytes >= CHUNK_BYTES || this.events.length >= MAX_QUEUED_EVENTS;
  }

  /** What waits, taken out. */
  take(): { events: RecordedEvent[]; messages: Array<string | undefined> } {
    const { events, messages } = this;
    this.events = [];
    this.messages = [];
    this.bytes = 0;
    return { events, messages };
  }
}
