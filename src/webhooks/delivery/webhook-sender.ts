import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'undici';
import { WebhookUrlPolicy } from '../webhook-url';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** The Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Sends one signed delivery: a `POST` of `body` with the `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * headers. A 2xx within `timeoutMs` is a success; anything else (a refused URL included) a failure, described.
 */
export async function sendDelivery(
  policy: WebhookUrlPolicy,
  request: { url: string; secret: string; deliveryId: string; timestamp: Date; body: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = await policy.refusal(request.url);
  if (refused) return { ok: false, statusCode: null, durationMs: elapsed(), error: `Refused: the URL ${refused}` };
  const url = new URL(request.url);
  const timestamp = Math.floor(request.timestamp.getTime() / 1000);
  const dispatcher = policy.dispatcherFor(url);
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    // undici's `request` rather than `fetch`: a string body in one write, no WHATWG objects; no redirect followed.
    const response = await httpRequest(url, {
      method: 'POST',
      dispatcher,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'workflows-webhooks/1',
        'webhook-id': request.deliveryId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(request.secret, request.deliveryId, timestamp, request.body),
      },
      body: request.body,
    });
    await response.body.dump().catch(() => undefined);
    const status = response.statusCode;
    const ok = status >= 200 && status < 300;
    return { ok, statusCode: status, durationMs: elapsed(), error: ok ? null : `Answered ${status}` };
  } catch (error) {
    const why = timeout.aborted ? `No answer within ${timeoutMs} ms` : describe(error);
    return { ok: false, statusCode: null, durationMs: elapsed(), error: why };
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return `Not delivered: ${message}`.slice(0, 500);
}
