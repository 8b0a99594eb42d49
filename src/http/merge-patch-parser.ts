import type { FastifyInstance } from 'fastify';
import { MERGE_PATCH_CONTENT_TYPE } from './patch-body';

/** Parses `application/merge-patch+json` bodies (RFC 7396) as JSON, with the same limit and checks as JSON bodies. */
export function registerMergePatchParser(fastify: FastifyInstance): void {
  const { bodyLimit, onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  fastify.addContentTypeParser(
    MERGE_PATCH_CONTENT_TYPE,
    { parseAs: 'string', bodyLimit },
    fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error'),
  );
}
