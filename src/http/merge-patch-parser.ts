import type { FastifyInstance } from 'fastify';
import { parseJsonBody } from './json-body';
import { MERGE_PATCH_CONTENT_TYPE } from './patch-body';

/** Parses `application/merge-patch+json` bodies (RFC 7396) with the same limits and checks as JSON bodies. */
export function registerMergePatchParser(
  fastify: FastifyInstance,
  limits: { bodyLimitBytes: number; jsonMaxDepth: number },
): void {
  fastify.addContentTypeParser(
    MERGE_PATCH_CONTENT_TYPE,
    { parseAs: 'string', bodyLimit: limits.bodyLimitBytes },
    (_request, body, done) => {
      try {
        done(null, parseJsonBody(body as string, limits.jsonMaxDepth));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
