import { SetMetadata } from '@nestjs/common';

export const UNRECORDED_FIELDS = 'idempotency:unrecorded-fields';

/**
 * Fields of a route's answer that an `Idempotency-Key` does not record (a secret shown once): a repeat of the
 * request gets the answer without them.
 */
export const UnrecordedFields = (...fields: string[]) => SetMetadata(UNRECORDED_FIELDS, fields);

export function withoutFields(body: unknown, fields: string[] | undefined): unknown {
  if (!fields?.length || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));
}
