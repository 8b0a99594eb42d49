import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/http-server';
import { OPENAPI_PATH } from '../http/openapi/openapi';
import { problem } from '../http/problem';
import { ACCESS_CONFIG, AccessConfig } from '../config/access-config';
import { ApiKeys, bearerToken, digestOf } from './api-keys';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * API keys and the rate limit for every `/v1` route but the API description, and for the protocols' routes, checked in an `onRequest` hook: before
 * the body is read, so a request without a key costs no parsing, and every request counts, bad bodies included.
 *
 * Requests are limited per key, or per client address when the request carries no valid key (so made-up keys do
 * not buy fresh allowances); past the limit: 429 with `Retry-After`. With keys configured, a request needs
 * `Authorization: Bearer <key>` (401 otherwise); a read-only key may only read (403 for a write), and not webhooks.
 */
@Injectable()
export class AccessControl {
  constructor(
    private readonly keys: ApiKeys,
    @Inject(ACCESS_CONFIG) private readonly config: AccessConfig,
    private readonly counts: ThrottlerStorageService,
  ) {}

  register(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', async (request, reply) => {
      if (!isGuarded(request)) return;
      const token = bearerToken(request.headers.authorization);
      const access = token === undefined ? undefined : this.keys.accessOf(token);
      if (this.config.rateLimit > 0 && (await this.overLimit(request, reply, access && token))) return reply;
      if (this.keys.open) return;
      if (!access) {
        void reply.header('WWW-Authenticate', `Bearer realm="workflows"${token ? ', error="invalid_token"' : ''}`);
        const detail = token ? 'The API key is not valid' : 'An API key is needed: send "Authorization: Bearer <key>"';
        sendProblem(reply, problem(401, 'unauthorized', detail), request.url);
        return reply;
      }
      // A read key may list an MCP server's tools and read A2A tasks (POSTs, as every message of theirs is): the
      // protocols refuse its calls, sends and cancels themselves.
      if (access === 'read' && !READ_METHODS.has(request.method) && !READ_POSTS.has(request.routeOptions.url!)) {
        sendProblem(reply, problem(403, 'forbidden', 'This API key may only read'), request.url);
        return reply;
      }
      if (access === 'read' && request.routeOptions.url?.startsWith('/v1/webhooks')) {
        sendProblem(reply, problem(403, 'forbidden', 'A read-only key may not see or manage webhooks'), request.url);
        return reply;
      }
    });
  }

  /** Counts the request; past the limit, answers it with a 429. One allowance per client across all routes. */
  private async overLimit(request: FastifyRequest, reply: FastifyReply, validKey: string | undefined) {
    const { rateLimit: limit, rateLimitWindowMs: windowMs } = this.config;
    const tracker = validKey ? `key:${digestOf(validKey).toString('hex').slice(0, 32)}` : `ip:${request.ip}`;
    const count = await this.counts.increment(tracker, windowMs, limit, windowMs, 'default');
    // On the raw response, so that event streams (which write their own head) carry them too.
    reply.raw.setHeader('X-RateLimit-Limit', limit);
    reply.raw.setHeader('X-RateLimit-Remaining', Math.max(0, limit - count.totalHits));
    reply.raw.setHeader('X-RateLimit-Reset', count.timeToExpire);
    if (!count.isBlocked) return false;
    void reply.header('Retry-After', count.timeToBlockExpire);
    const detail = `More than ${limit} requests in ${windowMs / 1000} s; retry after Retry-After seconds`;
    sendProblem(reply, problem(429, 'too-many-requests', detail), request.url);
    return true;
  }
}

/** The protocols' endpoints, whose messages are all POSTs, reads included. */
const PROTOCOL_POSTS = new Set(['/mcp', '/a2a/:agentName']);
/** POSTs a read key may send: the protocols' (see above), and a memory search, which changes nothing. */
const READ_POSTS = new Set([...PROTOCOL_POSTS, '/v1/memory/search']);
const PROTOCOL_ROUTES = new Set([
  ...PROTOCOL_POSTS,
  '/a2a/:agentName/.well-known/agent-card.json',
  '/.well-known/agent-card.json',
]);

/**
 * Routes under `/v1` and the protocols' (MCP, A2A), told by the route matched (not the raw URL, which may spell a
 * path in several ways).
 */
function isGuarded(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && ((route.startsWith('/v1/') && route !== OPENAPI_PATH) || PROTOCOL_ROUTES.has(route));
}
