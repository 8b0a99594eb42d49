import { STATUS_CODES, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply } from 'fastify';
import type { HttpLimits } from '../config/http-settings';
import { requestIdOf } from './request-id';
import { answerFor, shuttingDown } from './error-problems';
import { PROBLEM_CONTENT_TYPE, Problem, RETRY_AFTER_SECONDS } from './problem';
import { NOSNIFF } from './security-headers';

/**
 * Fastify's options from the configured limits: body size, time limits, and problem+json for the errors Fastify
 * and Node answer themselves (a too-long path parameter, a bad URL, oversized headers, broken HTTP, timeouts).
 */
export function fastifyOptions(limits: HttpLimits): FastifyHttpOptions<Server> {
  return {
    bodyLimit: limits.bodyLimitBytes,
    routerOptions: { maxParamLength: limits.maxParamLength },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionIdleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    forceCloseConnections: 'idle',
    requestIdHeader: false,
    trustProxy: limits.trustProxy,
    genReqId: requestIdOf,
    // Requests during shutdown get our own 503 (see registerShutdownGuard).
    return503OnClosing: false,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      // Node looks for expired requests this often; keep it a fraction of the limit so short limits hold.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.requestTimeoutMs / 10))),
    },
    frameworkErrors: (error, request, reply) => sendProblem(reply, answerFor(error, limits).problem, request.url),
    clientErrorHandler: (error, socket) => answerClientError(error, socket, limits),
  };
}

/** While the service shuts down, new requests get a 503 with Retry-After; open ones are cut off after the limit. */
export function registerShutdownGuard(fastify: FastifyInstance, limits: HttpLimits): void {
  let closing = false;
  let deadline: NodeJS.Timeout | undefined;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    void reply.header('Connection', 'close');
    sendProblem(reply, shuttingDown(), request.url);
  });
  // A request that was in flight when the shutdown began is answered, and its connection closed after it.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('Connection', 'close');
    done(null, payload);
  });
  fastify.addHook('preClose', (done) => {
    closing = true;
    deadline = setTimeout(() => fastify.server.closeAllConnections(), limits.shutdownTimeoutMs).unref();
    done();
  });
  fastify.addHook('onClose', (_instance, done) => {
    clearTimeout(deadline);
    done();
  });
}

/** Answers with a problem from a hook, outside Nest (whose filter answers errors thrown in handlers). */
export function sendProblem(reply: FastifyReply, problem: Problem, url: string): void {
  if (problem.status === 503) void reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  // Framework errors (a bad URL, a too-long parameter) are answered before any hook has run.
  void reply
    .header(...NOSNIFF)
    .code(problem.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send({ ...problem, instance: url });
}

/** Node's client errors arrive on the bare socket, before or outside any request Fastify handles. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, limits: HttpLimits): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !response?.headersSent) {
    const { problem } = answerFor(error, limits);
    // The request being received, if any, is the one at fault; a later, unparsable one has no URL.
    const instance = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? response?.req?.url : undefined;
    const body = JSON.stringify(instance ? { ...problem, instance } : problem);
    const head = [
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
      `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      NOSNIFF.join(': '),
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 1000).unref();
  } else {
    // A response already on its way is let through before the connection closes.
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  }
}
