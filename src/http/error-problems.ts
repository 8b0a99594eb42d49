import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import { DomainError } from '../domain/decider';
import { StoreUnavailableError } from '../event-store/event-store';
import type { HttpLimits } from '../config/http-settings';
import { MalformedJson, Problem, TooManyJsonValues, problem } from './problem';
import { ValidationFailed } from '../shared/validation-failed';
import { TooManyStreams } from '../access/stream-limits';

/** How loud an error is in the log: a client's mistake or departure is none of our errors. */
export type LogLevel = 'none' | 'debug' | 'warn' | 'error';

export interface ErrorAnswer {
  problem: Problem;
  log: LogLevel;
}

const DOMAIN_STATUS = {
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  precondition_failed: 412,
  upstream_failed: 502,
} as const;

/**
 * The problem+json answer to every error, in one place: our own, the domain's, the store's, Fastify's (as
 * thrown or as Nest wraps them) and Node's client errors (timeouts, oversized headers, broken HTTP).
 */
export function answerFor(error: unknown, limits: HttpLimits): ErrorAnswer {
  const quiet = (p: Problem): ErrorAnswer => ({ problem: p, log: 'none' });
  if (error instanceof ValidationFailed) return quiet(problem(400, 'validation-error', error.message, error.errors));
  if (error instanceof MalformedJson) return quiet(problem(400, 'malformed-json', error.message));
  if (error instanceof TooManyJsonValues) return quiet(problem(413, 'payload-too-large', error.message));
  if (error instanceof DomainError) {
    const type = error.problemType ?? error.kind.replace('_', '-');
    return quiet(problem(DOMAIN_STATUS[error.kind], type, error.message, error.errors));
  }
  if (error instanceof TooManyStreams) return quiet(problem(429, 'too-many-streams', error.message));
  if (error instanceof StoreUnavailableError || isStoreFailure(error)) {
    return { problem: storeUnavailable(), log: 'warn' };
  }
  if (isClientGone(error))
    return { problem: problem(400, 'client-closed-request', 'The client closed the request'), log: 'debug' };
  const byCode = answerForCode((error as { code?: unknown })?.code, error, limits);
  if (byCode) return byCode;
  if (error instanceof HttpException) return answerForStatus(error, limits);
  return { problem: problem(500, 'internal-error', 'An unexpected error occurred'), log: 'error' };
}

export function storeUnavailable(): Problem {
  return problem(503, 'store-unavailable', 'The event store is unavailable; try again shortly');
}

export function shuttingDown(): Problem {
  return problem(503, 'shutting-down', 'The service is shutting down; try again shortly');
}

/** A store failure that is not the caller's fault, such as SQLite's "database is locked". */
function isStoreFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

function isClientGone(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE' || message === 'aborted';
}

/** Fastify's errors before routing and Node's client errors, which carry a code. */
function answerForCode(code: unknown, error: unknown, limits: HttpLimits): ErrorAnswer | undefined {
  const quiet = (p: Problem): ErrorAnswer => ({ problem: p, log: 'none' });
  if (typeof code !== 'string') return undefined;
  switch (code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return quiet(
        problem(414, 'uri-too-long', `A path segment is longer than the limit of ${limits.maxParamLength} characters`),
      );
    case 'FST_ERR_BAD_URL':
      return quiet(problem(400, 'bad-url', 'The path is not a valid URL (check its percent-encoding)'));
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return quiet(payloadTooLarge(limits));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return quiet(unsupportedMediaType());
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return quiet(
        problem(408, 'request-timeout', `The request was not received in full within ${limits.requestTimeoutMs} ms`),
      );
    case 'HPE_HEADER_OVERFLOW':
      return quiet(
        problem(431, 'request-header-fields-too-large', 'The request line and headers are larger than the limit'),
      );
  }
  if (code.startsWith('HPE_')) {
    const reason = code === 'HPE_INVALID_METHOD' ? 'an unknown method' : (error as Error).message;
    return quiet(problem(400, 'bad-request', `The request is not valid HTTP/1.1: ${reason}`));
  }
  return undefined;
}

/** Nest wraps Fastify's errors (malformed JSON, body limit, media type, unknown route) into HttpExceptions. */
function answerForStatus(error: HttpException, limits: HttpLimits): ErrorAnswer {
  const status = error.getStatus();
  const quiet = (p: Problem): ErrorAnswer => ({ problem: p, log: 'none' });
  if (status >= 500) return { problem: problem(500, 'internal-error', 'An unexpected error occurred'), log: 'error' };
  switch (status) {
    case 404:
      return quiet(problem(404, 'not-found', error.message.replace(/^Cannot (\w+) (.*)$/, 'No route $1 $2')));
    case 413:
      return quiet(payloadTooLarge(limits));
    case 415:
      return quiet(unsupportedMediaType());
    default:
      if (/json/i.test(error.message)) return quiet(problem(status, 'malformed-json', error.message));
      return quiet(problem(status, slugFor(STATUS_CODES[status] ?? 'error'), error.message));
  }
}

function payloadTooLarge(limits: HttpLimits): Problem {
  return problem(413, 'payload-too-large', `The body is larger than the limit of ${limits.bodyLimitBytes} bytes`);
}

function unsupportedMediaType(): Problem {
  return problem(415, 'unsupported-media-type', 'Send the body as application/json');
}

function slugFor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-|-$/g, '');
}
