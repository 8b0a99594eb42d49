import { Injectable, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerToken, digestOf } from '../access/api-keys';
import { ActorRegistry } from '../actors/actor-registry';
import { persistently } from '../actors/persistently';
import { DomainError } from '../domain/decider';
import { isForgotten } from '../event-store/sealing/sealed-values';
import { Clock } from '../shared/clock';
import { ValidationFailed } from '../shared/validation-failed';
import { traceOf } from '../shared/trace-context';
import {
  IdempotencyCommand,
  RecordedResponse,
  fingerprintOf,
  idempotencyDecider,
  idempotencyStream,
} from './idempotency-key';
import { unrecordedFieldsOf, withoutFields } from './unrecorded-fields';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** The headers that describe a response and are given back with it. */
const KEPT_HEADERS = ['location', 'etag', 'preference-applied'];
const COMPLETE_WITHIN_MS = 10_000;

/** A request that holds its key: how to finish it once the answer is known. */
interface Claim {
  stream: string;
  fingerprint: string;
  send(command: IdempotencyCommand): Promise<unknown>;
}

/**
 * `Idempotency-Key` on a POST or PATCH: the first request runs and its response is recorded on the key's stream;
 * a repeat with the same body gets that response back and writes nothing; the same key with another body is a
 * 422; a repeat while the first is still in flight is a 409. Being events, keys hold across restarts and across
 * instances sharing EventStoreDB.
 *
 * Fastify hooks rather than a Nest interceptor: a global interceptor puts every request of every route through
 * rxjs (10 to 25 % of a `POST /v1/agents`'s CPU); these cost a header look-up when the header is absent. They
 * run after access control (an `onRequest` hook) and the body's parsing, before the route's pipes and handler;
 * their errors reach the handlers' problem+json filter through Nest's error handler.
 */
@Injectable()
export class IdempotencyHooks {
  private readonly logger = new Logger('Idempotency');
  private readonly claims = new WeakMap<FastifyRequest, Claim>();

  constructor(
    private readonly actors: ActorRegistry,
    private readonly clock: Clock,
  ) {}

  register(fastify: FastifyInstance): void {
    fastify.addHook('preHandler', (request, reply, done) => {
      const header = request.headers['idempotency-key'];
      if (header === undefined || (request.method !== 'POST' && request.method !== 'PATCH')) return done();
      // The protocols (MCP, A2A) may answer on the raw socket, past these hooks; their messages carry ids of their own.
      const route = request.routeOptions.url;
      if (route === '/mcp' || route === '/a2a/:agentName') return done();
      // A replayed response is sent here, and the route's handler is not run.
      this.claim(request, reply, Array.isArray(header) ? header[0] : header).then(
        (replayed) => replayed || done(),
        (error: unknown) => done(error as Error),
      );
    });
    fastify.addHook('onSend', (request, reply, payload, done) => {
      const claim = this.claims.get(request);
      if (!claim) return done(null, payload);
      this.claims.delete(request);
      this.finish(claim, request, reply, payload).then(
        () => done(null, payload),
        (error: unknown) => done(error as Error),
      );
    });
  }

  /** Claims the key; true when the request is a repeat of a completed one, whose response was sent again. */
  private async claim(request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
    if (!KEY_PATTERN.test(key)) {
      throw new ValidationFailed([{ path: 'Idempotency-Key', message: 'must be 1 to 255 printable characters' }]);
    }
    const token = bearerToken(request.headers.authorization);
    const stream = idempotencyStream(token ? digestOf(token).toString('hex') : 'open', key);
    const fingerprint = fingerprintOf(request.method, request.url, request.body);
    const context = { correlationId: stream, causationId: stream, trace: traceOf(request) };
    const send = (command: IdempotencyCommand) => this.actors.send(stream, idempotencyDecider, command, context);
    const { events, state } = await send({ type: 'ClaimIdempotencyKey', fingerprint });
    if (events.length === 0 && state?.state === 'completed') {
      if (isForgotten(state.response.body)) throw answerForgotten();
      replay(reply, state.response);
      return true;
    }
    this.claims.set(request, { stream, fingerprint, send });
    return false;
  }

  /**
   * Records the answer before it is sent. A refusal (4xx) changed nothing: the key is free again. After any other
   * failure (the store away, an outcome unknown) the key stays in flight, and is free again after 5 minutes. The
   * completion is retried through a short store outage rather than given up, so that a repeat cannot run the
   * request twice.
   */
  private async finish(claim: Claim, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const { stream, fingerprint, send } = claim;
    if (reply.statusCode >= 500) return;
    if (reply.statusCode >= 400) {
      await send({ type: 'ReleaseIdempotencyKey', fingerprint }).catch(() => undefined);
      return;
    }
    const body = withoutFields(bodyOf(payload), unrecordedFieldsOf(request));
    const response = recorded(reply, body);
    const completeBy = this.clock.now().getTime() + COMPLETE_WITHIN_MS;
    await persistently(
      () => send({ type: 'CompleteIdempotentRequest', fingerprint, response }),
      `Recording the response of Idempotency-Key ${stream}`,
      this.logger,
      () => this.clock.now().getTime() > completeBy,
    );
  }
}

/**
 * The kept answer was about a subject since forgotten (its content sealed under a key now destroyed): it cannot be
 * given back, and the request is not run again either, which would do twice what the key was there to do once.
 */
function answerForgotten(): DomainError {
  const message =
    'The answer kept for this Idempotency-Key was about a subject who has since been forgotten: it cannot be given back, and the request is not run again';
  return new DomainError('conflict', message, [], 'idempotent-answer-forgotten');
}

function replay(reply: FastifyReply, response: RecordedResponse): void {
  void reply.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) void reply.header(name, value);
  void reply.header('Idempotent-Replayed', 'true');
  void reply.send(response.body);
}

/** The answer's body as JSON (the routes answer JSON, or nothing). */
function bodyOf(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload === '') return null;
  return JSON.parse(payload);
}

function recorded(reply: FastifyReply, body: unknown): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body: body ?? null };
}
