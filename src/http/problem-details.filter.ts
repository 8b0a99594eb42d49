import { STATUS_CODES } from 'node:http';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/decider';
import { StoreUnavailableError } from '../event-store/event-store';
import { BODY_LIMIT_BYTES, PROBLEM_CONTENT_TYPE, Problem, ValidationFailed, problem } from './problem';

const DOMAIN_STATUS = { not_found: 404, conflict: 409, unprocessable: 422, precondition_failed: 412 } as const;

/** Answers every error as RFC 9457 problem+json; never leaks a stack trace. */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const body = { ...this.toProblem(error), instance: request.url };
    if (body.status === 503) http.getResponse<FastifyReply>().header('Retry-After', '1');
    void http.getResponse<FastifyReply>().status(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  }

  toProblem(error: unknown): Problem {
    if (error instanceof ValidationFailed) return problem(400, 'validation-error', error.message, error.errors);
    if (error instanceof DomainError) {
      const status = DOMAIN_STATUS[error.kind];
      return problem(status, error.kind.replace('_', '-'), error.message, error.errors);
    }
    if (error instanceof StoreUnavailableError) {
      this.logger.warn(`Event store unavailable: ${String(error.cause ?? error.message)}`);
      return problem(503, 'store-unavailable', 'The event store is unavailable; try again shortly');
    }
    if (error instanceof HttpException) return this.fromHttpException(error);
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return problem(500, 'internal-error', 'An unexpected error occurred');
  }

  /** Nest turns Fastify's own errors (malformed JSON, body limit, media type, unknown route) into these. */
  private fromHttpException(error: HttpException): Problem {
    const status = error.getStatus();
    if (status >= 500) {
      this.logger.error(error.stack ?? error.message);
      return problem(500, 'internal-error', 'An unexpected error occurred');
    }
    switch (status) {
      case 404:
        return problem(404, 'not-found', error.message.replace(/^Cannot (\w+) (.*)$/, 'No route $1 $2'));
      case 413:
        return problem(
          413,
          'payload-too-large',
          `The body is larger than the limit of ${BODY_LIMIT_BYTES} bytes (1 MiB)`,
        );
      case 415:
        return problem(415, 'unsupported-media-type', 'Send the body as application/json');
      default:
        if (/json/i.test(error.message)) return problem(status, 'malformed-json', error.message);
        return problem(status, slugFor(STATUS_CODES[status] ?? 'error'), error.message);
    }
  }
}

function slugFor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-|-$/g, '');
}
