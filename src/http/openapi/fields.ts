import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CURSOR_LENGTH, MAX_LIMIT } from '../paging';
import { IdPrefix } from '../../shared/ids';

/**
 * Bounds of the strings and arrays in the OpenAPI schemas, shared by them: the limits the service enforces on what
 * it is sent, and the lengths of what it makes itself (ids, times, positions).
 */

/** Any JSON value (a tool's input or result): an object, an array, a string, a number, a boolean or null. */
export const JSON_VALUE = {
  nullable: true,
  oneOf: [
    { type: 'object', additionalProperties: true },
    { type: 'array', maxItems: 100_000, items: {} },
    { type: 'string', maxLength: 1_000_000 },
    { type: 'number' },
    { type: 'boolean' },
  ],
};

/** `2026-01-01T00:00:00.000Z`, as `Date.toISOString` writes it. */
export const TIME = { type: String, format: 'date-time', maxLength: 24 } as const;

/** A resource id: its prefix, `_` and a ULID. */
export function idField(prefix: IdPrefix, example?: string) {
  return { type: String, maxLength: prefix.length + 27, pattern: `^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`, example };
}

/** An agent run's id or a workflow run's. */
export const RUN_ID_PATTERN = '^(agentrun|wfrun)_[0-9A-HJKMNP-TV-Z]{26}$';

/** The id of an agent run or of a workflow run (as an experiment's items and a dataset's sources are). */
export const RUN_ID = { type: String, maxLength: 'agentrun'.length + 27, pattern: RUN_ID_PATTERN } as const;

/** A position in the log or a revision in a stream: an unsigned 64-bit integer in decimal. */
export const POSITION = { type: String, maxLength: 20, pattern: '^[0-9]+$' } as const;

/** A list's `nextCursor`: the base64url of an id. */
export const CURSOR = { type: String, maxLength: CURSOR_LENGTH } as const;

/** Items of one page of a list. */
export const PAGE_ITEMS = MAX_LIMIT;

/** Names of agents and workflows, model ids, step agents and actions, tool ids. */
export const NAME_LENGTH = 200;

/** An agent's instructions and a run's task. */
export const TEXT_LENGTH = 100_000;

/** Tools of an agent, steps of a workflow. */
export const LIST_ITEMS = 100;

/** Query and header values are bounded only by the size Node allows a request's head (16 KiB; larger is a 431). */
export const HEAD_LENGTH = 16 * 1024;

/** A version as an entity tag, `"3"` (a header's schema, hence the plain type). */
export const ETAG = { type: 'string', maxLength: 18, pattern: '^"[0-9]+"$' } as const;

/** What content of a forgotten subject reads as (docs/security.md, "Forgetting a person"). */
export const FORGOTTEN_VALUE = {
  type: 'object',
  properties: { forgotten: { type: 'boolean', enum: [true] } },
  required: ['forgotten'],
  additionalProperties: false,
  description: 'Content whose subject was forgotten (DELETE /v1/subjects/{subjectId}): its key is destroyed.',
};

/** A text that may have been forgotten: the text, or `{"forgotten": true}`. */
export const FORGETTABLE_TEXT = (maxLength: number): { oneOf: SchemaObject[] } => ({
  oneOf: [{ type: 'string', maxLength }, FORGOTTEN_VALUE],
});
