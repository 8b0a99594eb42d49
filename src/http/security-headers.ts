import type { FastifyInstance } from 'fastify';
import { DOCS_PATH } from './openapi/openapi';

/**
 * Swagger UI's page: its scripts, styles and images from this origin (its inline `<style>` and style attributes
 * need 'unsafe-inline' for styles; its icons are data: URLs), requests to this origin only, and no framing.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const NOSNIFF = ['X-Content-Type-Options', 'nosniff'] as const;

/**
 * Every answer says `nosniff`, streams and static files included (set on the raw response, which keeps it even when
 * a route writes its own head); the API's interactive page gets its own Content-Security-Policy.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(...NOSNIFF);
    const path = request.url.split('?')[0];
    if (path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`))
      reply.raw.setHeader('Content-Security-Policy', DOCS_CSP);
    done();
  });
}
