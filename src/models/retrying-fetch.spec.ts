import { retryDelayMs } from './retrying-fetch';

describe('retryDelayMs', () => {
  const policy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000 };
  const headers = (init: Record<string, string> = {}) => new Headers(init);

  it('backs off exponentially up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs(headers(), n, policy))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('honours Retry-After in seconds or as a date, and retry-after-ms, up to the cap', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs(headers({ 'retry-after': '0.5' }), 0, policy, now)).toBe(500);
    expect(retryDelayMs(headers({ 'retry-after': '60' }), 0, policy, now)).toBe(1_000);
    expect(retryDelayMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:00 GMT' }), 0, policy, now)).toBe(0);
    expect(retryDelayMs(headers({ 'retry-after-ms': '250', 'retry-after': '1' }), 0, policy, now)).toBe(250);
  });
});
