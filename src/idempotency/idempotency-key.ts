import { createHash } from 'node:crypto';
import { Decider, DomainError, DomainEvent } from '../domain/decider';

/** How long a key's first response is kept for repeats. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A request still in flight after this long is taken to have died with its instance; its key may be used again. */
export const IN_FLIGHT_STALE_MS = 5 * 60_000;

/** What a repeat gets back: the first response's status, the headers that describe it, and its body. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type IdempotencyState =
  | null
  | { state: 'in_flight'; fingerprint: string; at: string }
  | { state: 'completed'; fingerprint: string; at: string; response: RecordedResponse }
  | { state: 'released'; fingerprint: string; at: string };

export type ClaimIdempotencyKey = { type: 'ClaimIdempotencyKey'; fingerprint: string };
export type CompleteIdempotentRequest = {
  type: 'CompleteIdempotentRequest';
  fingerprint: string;
  response: RecordedResponse;
};
export type ReleaseIdempotencyKey = { type: 'ReleaseIdempotencyKey'; fingerprint: string };
export type IdempotencyCommand = ClaimIdempotencyKey | CompleteIdempotentRequest | ReleaseIdempotencyKey;

export type IdempotencyKeyClaimed = DomainEvent<'IdempotencyKeyClaimed', { fingerprint: string; claimedAt: string }>;
export type IdempotentRequestCompleted = DomainEvent<
  'IdempotentRequestCompleted',
  { fingerprint: string; response: RecordedResponse; completedAt: string }
>;
export type IdempotencyKeyReleased = DomainEvent<'IdempotencyKeyReleased', { fingerprint: string; releasedAt: string }>;
export type IdempotencyEvent = IdempotencyKeyClaimed | IdempotentRequestCompleted | IdempotencyKeyReleased;

/** One stream per key and caller: the key is the caller's, so two callers never see each other's responses. */
export const idempotencyStream = (principal: string, key: string) =>
  `idempotency-${createHash('sha256').update(`${principal}\n${key}`).digest('hex')}`;

/**
 * An `Idempotency-Key`: the first request claims it; it completes with the response, which repeats of the same
 * request get back for 24 hours; it is released when the request failed, so that a retry runs again.
 */
export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: null,
  // A key's stream is written twice within one request, then only read by a repeat.
  cacheActors: false,

  decide(state, command, now) {
    const at = now.toISOString();
    const { fingerprint } = command;
    switch (command.type) {
      case 'ClaimIdempotencyKey': {
        if (state === null || state.state === 'released' || expired(state, now)) {
          return [{ type: 'IdempotencyKeyClaimed', data: { fingerprint, claimedAt: at } }];
        }
        if (state.fingerprint !== fingerprint) {
          throw new DomainError('unprocessable', 'This Idempotency-Key was used for a different request');
        }
        if (state.state === 'in_flight') {
          throw new DomainError('conflict', 'A request with this Idempotency-Key is still in progress; retry later');
        }
        return [];
      }
      case 'CompleteIdempotentRequest':
        if (state?.state !== 'in_flight' || state.fingerprint !== fingerprint) return [];
        return [
          { type: 'IdempotentRequestCompleted', data: { fingerprint, response: command.response, completedAt: at } },
        ];
      case 'ReleaseIdempotencyKey':
        if (state?.state !== 'in_flight' || state.fingerprint !== fingerprint) return [];
        return [{ type: 'IdempotencyKeyReleased', data: { fingerprint, releasedAt: at } }];
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed':
        return { state: 'in_flight', fingerprint: event.data.fingerprint, at: event.data.claimedAt };
      case 'IdempotentRequestCompleted': {
        const { fingerprint, response, completedAt } = event.data;
        return { state: 'completed', fingerprint, at: completedAt, response };
      }
      case 'IdempotencyKeyReleased':
        return { state: 'released', fingerprint: event.data.fingerprint, at: event.data.releasedAt };
    }
  },
};

function expired(state: NonNullable<IdempotencyState>, now: Date): boolean {
  const age = now.getTime() - Date.parse(state.at);
  return state.state === 'completed'
    ? age > IDEMPOTENCY_TTL_MS
    : state.state === 'in_flight' && age > IN_FLIGHT_STALE_MS;
}

/** The request a key stands for: method, path and query, and the body with its keys in a stable order. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${stableJson(body)}`)
    .digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
