import type { RetryPolicy } from '../config/provider-config';

type Fetch = typeof globalThis.fetch;

export interface CountingFetch {
  fetch: Fetch;
  /** HTTP requests sent so far, retries included. */
  attempts(): number;
}

/**
 * A `fetch` for the AI SDK providers that retries 429 and 5xx answers with exponential back-off (honouring
 * `Retry-After` / `retry-after-ms` up to `maxDelayMs`), stops waiting as soon as the request's signal fires,
 * and counts attempts. Network errors are not retried. Call the SDK with `maxRetries: 0` so retries are not doubled.
 */
export function createRetryingFetch(
  policy: RetryPolicy,
  baseFetch: Fetch = (input, init) => fetch(input, init),
): CountingFetch {
  let attempts = 0;
  const retryingFetch: Fetch = async (input, init) => {
    for (let retry = 0; ; retry++) {
      init?.signal?.throwIfAborted();
      attempts++;
      const response = await baseFetch(input, init);
      if (!isRetryableStatus(response.status) || retry >= policy.maxRetries) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryDelayMs(response.headers, retry, policy), init?.signal ?? undefined);
    }
  };
  return { fetch: retryingFetch, attempts: () => attempts };
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The server's `retry-after-ms` or `Retry-After` (seconds or HTTP date) if given, else exponential back-off. */
export function retryDelayMs(headers: Headers, retry: number, policy: RetryPolicy, now = Date.now()): number {
  const asked = askedDelayMs(headers, now);
  const delay = asked ?? policy.baseDelayMs * 2 ** retry;
  return Math.min(Math.max(delay, 0), policy.maxDelayMs);
}

function askedDelayMs(headers: Headers, now: number): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - now;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
