import { given } from '../../test/support/decider-specification';
import { IdempotencyEvent, fingerprintOf, idempotencyDecider } from './idempotency-key';

const now = new Date('2026-01-02T00:00:00.000Z');
const claimed: IdempotencyEvent = {
  type: 'IdempotencyKeyClaimed',
  data: { fingerprint: 'f1', claimedAt: '2026-01-01T23:59:00.000Z' },
};
const response = { status: 201, headers: { location: '/v1/agents/agent_1' }, body: { id: 'agent_1' } };
const completed: IdempotencyEvent = {
  type: 'IdempotentRequestCompleted',
  data: { fingerprint: 'f1', response, completedAt: '2026-01-01T23:59:01.000Z' },
};

describe('an idempotency key', () => {
  it('is claimed by its first request', () => {
    given(idempotencyDecider, [])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f1' }, now)
      .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f1', claimedAt: now.toISOString() } }]);
  });

  it('gives a repeat of a completed request its response, writing nothing', () => {
    given(idempotencyDecider, [claimed, completed])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f1' }, now)
      .then([]);
    given(idempotencyDecider, [claimed, completed]).thenState({
      state: 'completed',
      fingerprint: 'f1',
      at: '2026-01-01T23:59:01.000Z',
      response,
    });
  });

  it('refuses another request under the same key, and a repeat while the first is in flight', () => {
    given(idempotencyDecider, [claimed, completed])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f2' }, now)
      .thenRefuses('unprocessable');
    given(idempotencyDecider, [claimed])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f1' }, now)
      .thenRefuses('conflict');
  });

  it('is free again after 24 hours, after its request failed, or when its request died in flight', () => {
    const dayLater = new Date('2026-01-03T00:00:00.000Z');
    given(idempotencyDecider, [claimed, completed])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f2' }, dayLater)
      .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f2', claimedAt: dayLater.toISOString() } }]);
    const released: IdempotencyEvent = {
      type: 'IdempotencyKeyReleased',
      data: { fingerprint: 'f1', releasedAt: '2026-01-01T23:59:01.000Z' },
    };
    given(idempotencyDecider, [claimed, released])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f1' }, now)
      .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f1', claimedAt: now.toISOString() } }]);
    const later = new Date('2026-01-02T00:10:00.000Z');
    given(idempotencyDecider, [claimed])
      .when({ type: 'ClaimIdempotencyKey', fingerprint: 'f1' }, later)
      .then([{ type: 'IdempotencyKeyClaimed', data: { fingerprint: 'f1', claimedAt: later.toISOString() } }]);
  });

  it('tells requests apart by method, path and body, not by the order of the body keys', () => {
    const a = fingerprintOf('POST', '/v1/agents', { name: 'x', model: 'y', nested: { b: 1, a: 2 } });
    expect(fingerprintOf('POST', '/v1/agents', { nested: { a: 2, b: 1 }, model: 'y', name: 'x' })).toBe(a);
    expect(fingerprintOf('POST', '/v1/agents', { name: 'x', model: 'z', nested: { b: 1, a: 2 } })).not.toBe(a);
    expect(fingerprintOf('PATCH', '/v1/agents', { name: 'x', model: 'y', nested: { b: 1, a: 2 } })).not.toBe(a);
  });
});
