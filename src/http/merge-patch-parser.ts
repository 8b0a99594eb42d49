import type { FastifyInstance } from 'fastify';
import { JsonBodyLimits, addJsonParser } from './json-body';
import { MERGE_PATCH_CONTENT_TYPE } from './patch-body';

/** Parses `application/merge-patch+json` bodies (RFC 7396) with the same limits and checks as JSON bodies. */
export function registerMergePatchParser(fastify: FastifyInstance, limits: JsonBodyLimits): void {
  addJsonParser(fastify, MERGE_PATCH_CONTENT_TYPE, limits);
}
