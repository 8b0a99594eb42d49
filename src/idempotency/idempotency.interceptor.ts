import { CallHandler, ExecutionContext, HttpException, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, catchError, from, mergeMap, of } from 'rxjs';
import { bearerToken, digestOf } from '../access/api-keys';
import { ActorRegistry } from '../actors/actor-registry';
import { DomainError } from '../domain/decider';
import { persistently } from '../actors/persistently';
import { ValidationFailed } from '../shared/validation-failed';
import { RecordedResponse, fingerprintOf, idempotencyDecider, idempotencyStream } from './idempotency-key';
import { UNRECORDED_FIELDS, withoutFields } from './unrecorded-fields';
import { traceOf } from '../shared/trace-context';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The headers that describe a response and are given back with it. */
const KEPT_HEADERS = ['location', 'etag', 'preference-applied'];
const COMPLETE_WITHIN_MS = 10_000;

/**
 * `Idempotency-Key` on a POST or PATCH: the first request runs and its response is recorded on the key's stream;
 * a repeat with the same body gets that response back and writes nothing; the same key with another body is a
 * 422; a repeat while the first is still in flight is a 409. Being events, keys hold across restarts and across
 * instances sharing EventStoreDB.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    private readonly actors: ActorRegistry,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const header = request.headers['idempotency-key'];
    if (header === undefined || (request.method !== 'POST' && request.method !== 'PATCH')) return next.handle();
    const key = Array.isArray(header) ? header[0] : header;
    if (!KEY_PATTERN.test(key)) {
      throw new ValidationFailed([{ path: 'Idempotency-Key', message: 'must be 1 to 255 printable characters' }]);
    }
    const token = bearerToken(request.headers.authorization);
    const stream = idempotencyStream(token ? digestOf(token).toString('hex') : 'open', key);
    const fingerprint = fingerprintOf(request.method, request.url, request.body);
    const context_ = { correlationId: stream, causationId: stream, trace: traceOf(request) };
    const send = (command: Parameters<typeof idempotencyDecider.decide>[1]) =>
      this.actors.send(stream, idempotencyDecider, command, context_);

    return from(send({ type: 'ClaimIdempotencyKey', fingerprint })).pipe(
      mergeMap(({ events, state }) => {
        if (events.length === 0 && state?.state === 'completed') return of(this.replay(reply, state.response));
        // The completion is recorded once the request has written what it writes: it is retried through a
        // short store outage rather than given up, so that a repeat cannot run the request twice.
        const unrecorded = this.reflector.get<string[] | undefined>(UNRECORDED_FIELDS, context.getHandler());
        const complete = (body: unknown) =>
          persistently(
            () =>
              send({
                type: 'CompleteIdempotentRequest',
                fingerprint,
                response: recorded(reply, withoutFields(body, unrecorded)),
              }),
            `Recording the response of Idempotency-Key ${stream}`,
            this.logger,
            () => Date.now() > completeBy,
          );
        const completeBy = Date.now() + COMPLETE_WITHIN_MS;
        return next.handle().pipe(
          mergeMap((body) => from(complete(body)).pipe(mergeMap(() => of(body)))),
          catchError((error: unknown) => {
            // Only a request the service refused changed nothing for sure; after any other failure (the store
            // away, an outcome unknown) the key stays in flight, and is free again after 5 minutes.
            const release = refusedByUs(error)
              ? send({ type: 'ReleaseIdempotencyKey', fingerprint }).catch(() => undefined)
              : Promise.resolve();
            return from(release).pipe(
              mergeMap(() => {
                throw error;
              }),
            );
          }),
        );
      }),
    );
  }

  private replay(reply: FastifyReply, response: RecordedResponse): unknown {
    void reply.status(response.status);
    for (const [name, value] of Object.entries(response.headers)) void reply.header(name, value);
    void reply.header('Idempotent-Replayed', 'true');
    return response.body;
  }
}

/** A refusal of the request itself (4xx): nothing was written. */
function refusedByUs(error: unknown): boolean {
  if (error instanceof DomainError || error instanceof ValidationFailed) return true;
  return error instanceof HttpException && error.getStatus() < 500;
}

function recorded(reply: FastifyReply, body: unknown): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body: body ?? null };
}
