import { BatchAppendOutcome, ConcurrencyError, ExpectedRevision, StoreUnavailableError } from '../event-store';
import { WriterFailure, WriterOutcome, WriterReply, decodeOutcomes } from './writer-protocol';

/** One append waiting for the writer: one stream, or several all or nothing (its events are in the encoder). */
export interface PendingAppend {
  /** Each part's stream and expectation, one after the other, for the ConcurrencyError of a conflict. */
  parts: Array<string | ExpectedRevision>;
  /** Where its outcome goes: the promise of one append, or its place (`index`) among a batch's. */
  answer: Answer;
  index: number;
}

export interface Answer {
  settle(index: number, outcome: BatchAppendOutcome): void;
}

/**
 * Tells each append of a commit how it went, from the writer's reply: its revisions and positions, the conflict
 * it met, or SQLite's failure. The writer's outcomes are returned for the live subscriptions.
 */
export function answerAppends(
  batch: PendingAppend[],
  reply: Exclude<WriterReply, { batchFailure: WriterFailure }>,
): WriterOutcome[] {
  const outcomes = decodeOutcomes(
    reply,
    batch.map((request) => request.parts.length / 2),
  );
  batch.forEach((request, i) => request.answer.settle(request.index, outcomeOf(request, outcomes[i])));
  return outcomes;
}

function outcomeOf(request: PendingAppend, outcome: WriterOutcome): BatchAppendOutcome {
  if ('ok' in outcome)
    return {
      ok: outcome.ok.map((result) => ({
        nextRevision: BigInt(result.nextRevision),
        position: BigInt(result.position),
      })),
    };
  if ('conflict' in outcome) {
    const { part, actual } = outcome.conflict;
    const error = new ConcurrencyError(
      request.parts[2 * part] as string,
      request.parts[2 * part + 1] as ExpectedRevision,
      actual === null ? 'no_stream' : BigInt(actual),
    );
    return { error };
  }
  return { error: asStoreFailure(writerError(outcome.failure)) };
}

/** The writer's report of an error, as an error again, with SQLite's code. */
export function writerError({ code, message }: WriterFailure): Error {
  return Object.assign(new Error(message), { code });
}

/** SQLite's own failures (a lock held elsewhere, a full disk) are the store's, not the caller's: 503, not 500. */
export function asStoreFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  return new StoreUnavailableError(`The event store could not append: ${(error as Error).message}`, { cause: error });
}
