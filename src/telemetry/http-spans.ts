import { Attributes, ROOT_CONTEXT, Span, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, SpanStatusCode, tracer, withTrace } from '../shared/trace-context';

const SPAN = Symbol('span');
type Traced = FastifyRequest & { [SPAN]?: Span };

/** Probes and scrapes would fill traces with noise. */
const UNTRACED = /^\/(health|metrics)(\/|$)/;

/**
 * A server span per request, after the HTTP semantic conventions (`GET /v1/agents/:agentId`), continuing the
 * caller's trace from its `traceparent`. The span's context is kept on the request (`withTrace`), not entered:
 * the controller hands it to its command (`@RequestTrace()`), so the command, its appends and the runs it queues
 * belong to the request's trace without an async scope.
 */
export function registerHttpSpans(fastify: FastifyInstance): void {
  // Each route's span name by method, made once: the same string each time is also cheaper to encode.
  const names = new Map<string, Map<string, string>>();
  const nameOf = (method: string, route: string) => {
    let byMethod = names.get(route);
    if (!byMethod) names.set(route, (byMethod = new Map()));
    let name = byMethod.get(method);
    if (!name) byMethod.set(method, (name = `${method} ${route}`));
    return name;
  };
  fastify.addHook('onRequest', (request: Traced, _reply, done) => {
    if (UNTRACED.test(request.url)) return done();
    const route = request.routeOptions.url;
    // Without a traceparent there is nothing to continue: the propagator would find nothing.
    const parent = request.headers.traceparent ? propagation.extract(ROOT_CONTEXT, request.headers) : ROOT_CONTEXT;
    const query = request.url.indexOf('?');
    const attributes: Attributes = {
      'http.request.method': request.method,
      'url.path': query < 0 ? request.url : request.url.slice(0, query),
      'url.scheme': request.protocol,
      'client.address': request.ip,
    };
    if (route) attributes['http.route'] = route;
    const agent = request.headers['user-agent'];
    if (agent) attributes['user_agent.original'] = agent;
    const span = tracer().startSpan(
      route ? nameOf(request.method, route) : request.method,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    request[SPAN] = span;
    withTrace(request, trace.setSpan(parent, span));
    done();
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
