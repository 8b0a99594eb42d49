import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

/**
 * Fields of a route's answer that an `Idempotency-Key` does not record (a secret shown once): a repeat of the
 * request gets the answer without them. Kept in the route's Fastify config, where the idempotency hooks read it.
 */
export const UnrecordedFields = (...fields: string[]) => RouteConfig({ unrecordedFields: fields });

export function unrecordedFieldsOf(request: FastifyRequest): string[] | undefined {
  return (request.routeOptions.config as { unrecordedFields?: string[] }).unrecordedFields;
}

export function withoutFields(body: unknown, fields: string[] | undefined): unknown {
  if (!fields?.length || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));
}
