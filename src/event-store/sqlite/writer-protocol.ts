/**
 * The messages between the SQLite store and its writer thread (writer.worker.js decodes and encodes the
 * other side). A batch of thousands of appends travels as one string and two arrays of numbers, which a worker
 * message copies at once, rather than as an object per event, which it would copy (and collect) one by one.
 */
import { EventMetadata, StreamAppend } from '../event-store';

/** One append as the writer takes it: its parts, each event's data and metadata as JSON text. */
export interface WriterRequest {
  parts: Array<{
    stream: string;
    /** 'any' | 'no_stream' | 'stream_exists' | '<revision>' */
    expected: string;
    events: Array<{ id: string; type: string; data: string; metadata: string }>;
  }>;
}

/**
 * A batch: `shape` holds, per request, its number of parts and then each part's number of events; `text` holds,
 * in that order, each part's stream and expectation, then each of its events' id, type, data and metadata, one
 * after the other; `lengths` holds the length of each of those strings. Every event is recorded at `recordedAt`.
 */
export interface WriterBatch {
  recordedAt: number;
  shape: Int32Array;
  lengths: Int32Array;
  text: string;
}

export type WriterFailure = { code?: string; message: string };

export type WriterOutcome =
  | { ok: Array<{ nextRevision: number; position: number }> }
  | { conflict: { part: number; actual: number | null } }
  | { failure: WriterFailure };

/**
 * The writer's answer: per request, in `results`, OK (0) then each part's next revision and position, CONFLICT
 * (1) then the part and the stream's actual revision (-1: none), or FAILURE (2) then an index into `failures`.
 */
export type WriterReply =
  | { results: Float64Array; failures: WriterFailure[]; headBefore: number; headAfter: number }
  | { batchFailure: WriterFailure };

const OK = 0;
const CONFLICT = 1;

/** An append as the writer takes it; serialised when the append is made, so data JSON cannot express fails it alone. */
export function toWriterRequest(parts: StreamAppend[]): WriterRequest {
  // Events of one command usually share their metadata object: it is serialised once.
  let metadata: EventMetadata | undefined;
  let metadataJson = '';
  return {
    parts: parts.map(({ stream, events, expected }) => ({
      stream,
      expected: typeof expected === 'bigint' ? expected.toString() : expected,
      events: events.map((event) => {
        if (event.metadata !== metadata) {
          metadata = event.metadata;
          metadataJson = JSON.stringify(metadata);
        }
        return { id: event.id, type: event.type, data: JSON.stringify(event.data), metadata: metadataJson };
      }),
    })),
  };
}

export function encodeBatch(requests: WriterRequest[], recordedAt: number): WriterBatch {
  const shape: number[] = [];
  const lengths: number[] = [];
  // Joined per request first: joining a few long strings is much quicker than joining many short ones.
  const texts: string[] = [];
  for (const { parts } of requests) {
    shape.push(parts.length);
    let text = '';
    for (const { stream, expected, events } of parts) {
      shape.push(events.length);
      text += stream + expected;
      lengths.push(stream.length, expected.length);
      for (const { id, type, data, metadata } of events) {
        text += id + type + data + metadata;
        lengths.push(id.length, type.length, data.length, metadata.length);
      }
    }
    texts.push(text);
  }
  return { recordedAt, shape: toInt32(shape), lengths: toInt32(lengths), text: texts.join('') };
}

function toInt32(numbers: number[]): Int32Array {
  const array = new Int32Array(numbers.length);
  for (let i = 0; i < numbers.length; i++) array[i] = numbers[i];
  return array;
}

/** The outcome of each request of the batch, in order. */
export function decodeOutcomes(
  { results, failures }: { results: Float64Array; failures: WriterFailure[] },
  requests: WriterRequest[],
): WriterOutcome[] {
  let at = 0;
  return requests.map(({ parts }) => {
    const kind = results[at++];
    if (kind === OK) {
      return {
        ok: parts.map(() => {
          const result = { nextRevision: results[at], position: results[at + 1] };
          at += 2;
          return result;
        }),
      };
    }
    if (kind === CONFLICT) {
      const conflict = { part: results[at], actual: results[at + 1] === -1 ? null : results[at + 1] };
      at += 2;
      return { conflict };
    }
    return { failure: failures[results[at++]] };
  });
}
