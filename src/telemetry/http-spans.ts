import { Context, ROOT_CONTEXT, Span, context, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, SpanStatusCode, tracer } from '../shared/trace-context';

const SPAN = Symbol('span');
const CONTEXT = Symbol('traceContext');
type Traced = FastifyRequest & { [SPAN]?: Span; [CONTEXT]?: Context };

/** Probes and scrapes would fill traces with noise. */
const UNTRACED = /^\/(health|metrics)(\/|$)/;

/**
 * A server span per request, after the HTTP semantic conventions (`GET /v1/agents/:agentId`), continuing the
 * caller's trace from its `traceparent`. The handler runs in the span's context: its commands, appends and the
 * runs it queues belong to the request's trace.
 */
export function registerHttpSpans(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request: Traced, _reply, done) => {
    if (UNTRACED.test(request.url)) return done();
    const route = request.routeOptions.url;
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer().startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0],
          'url.scheme': request.protocol,
          ...(route && { 'http.route': route }),
          'client.address': request.ip,
          ...(request.headers['user-agent'] && { 'user_agent.original': request.headers['user-agent'] }),
        },
      },
      parent,
    );
    request[SPAN] = span;
    request[CONTEXT] = trace.setSpan(parent, span);
    context.with(request[CONTEXT], done);
  });
  // The body is read in the connection's async context: the handler is put back into the span's.
  fastify.addHook('preHandler', (request: Traced, _reply, done) => {
    const traced = request[CONTEXT];
    if (traced) context.with(traced, done);
    else done();
  });
  fastify.addHook('onResponse', (request: Traced, reply, done) => {
    const span = request[SPAN];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      request[SPAN] = undefined;
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request: Traced, done) => {
    request[SPAN]?.setAttribute('http.request.aborted', true);
    request[SPAN]?.end();
    request[SPAN] = undefined;
    done();
  });
}
