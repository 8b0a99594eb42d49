import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where `npm run build:web` writes the console (the same path from src/ under ts-jest and from dist/). */
export const CONSOLE_DIR = join(__dirname, '..', '..', '..', 'dist-web');

/** Nothing inline, nothing from elsewhere: scripts, styles, images and requests come from this origin only. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the web console's built files at `/`: one route per file (so unknown paths, `/v1/...` included, stay
 * problem+json 404s), hashed assets cached for good, everything else revalidated each time.
 * Returns false when the console has not been built.
 */
export function serveConsole(fastify: FastifyInstance, root = CONSOLE_DIR): boolean {
  if (!existsSync(join(root, 'index.html'))) return false;
  // Not awaited: awaiting would load the plugins registered so far before Nest sets its not-found handler, and
  // their 404s (e.g. under /docs/) would no longer be problem+json. It loads with the others at start.
  void fastify.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    decorateReply: false,
    cacheControl: false,
    // build:web writes .br and .gz beside each asset.
    preCompressed: true,
    setHeaders: (reply: FastifyReply, path: string) => {
      const hashed = path.startsWith(join(root, 'assets'));
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    },
  });
  return true;
}
