import type { FastifyInstance } from 'fastify';
import { addJsonParser } from './json-body';
import { MERGE_PATCH_CONTENT_TYPE } from './patch-body';

/** Parses `application/merge-patch+json` bodies (RFC 7396) with the same limits and checks as JSON bodies. */
export function registerMergePatchParser(
  fastify: FastifyInstance,
  limits: { bodyLimitBytes: number; jsonMaxDepth: number },
): void {
  addJsonParser(fastify, MERGE_PATCH_CONTENT_TYPE, limits);
}
