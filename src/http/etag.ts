import { Type, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ValidationFailed } from '../shared/validation-failed';
import { ETAG } from './openapi/fields';

/** A definition's strong entity tag: its version, quoted (`"3"`). */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The definition a route answers with, its version in the answer's `ETag`. */
export function withEtag<Definition extends { version: number }>(
  reply: FastifyReply,
  definition: Definition,
): Definition {
  void reply.header('ETag', etagOf(definition.version));
  return definition;
}

/** The OpenAPI of a change that `If-Match` guards: the header, and a 200 with the whole definition and its new ETag. */
export function ApiIfMatchChange(type: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: 'The ETag last read: refused with 412 if the resource has changed since.',
    }),
    ApiResponse({ status: 200, type, headers: { ETag: { description: 'The new version, quoted', schema: ETAG } } }),
  );
}

/**
 * The versions an `If-Match` header accepts: undefined when there is none or it is `*`. Weak tags never match
 * (If-Match compares strongly), nor do tags this service did not make; both count as no version.
 */
export function versionsFromIfMatch(header: string | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const tags = value.split(',').map((tag) => tag.trim());
  if (!tags.every((tag) => /^(W\/)?"[\x21\x23-\x7e]*"$/.test(tag))) {
    throw new ValidationFailed(
      [{ path: 'If-Match', message: 'must be * or a list of entity tags such as "3" (quotes included)' }],
      'The If-Match header is not valid',
    );
  }
  return tags.flatMap((tag) => {
    const match = /^"([1-9]\d{0,8})"$/.exec(tag);
    return match ? [Number(match[1])] : [];
  });
}
