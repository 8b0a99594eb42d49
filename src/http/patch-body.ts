import { isPlainObject } from '../shared/json-merge-patch';
import { FieldError, ValidationFailed } from '../shared/validation-failed';

/** The media type of RFC 7396 JSON Merge Patch bodies; `application/json` is taken too. */
export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';

/**
 * Checks the top level of a merge patch: an object whose fields are ones the resource lets change. `readOnly`
 * maps each field that exists but cannot change to why; any other field is unknown.
 */
export function checkPatchFields(
  patch: unknown,
  editable: readonly string[],
  readOnly: Record<string, string>,
): Record<string, unknown> {
  if (!isPlainObject(patch)) {
    throw new ValidationFailed([{ path: 'body', message: 'must be a JSON object (a JSON Merge Patch, RFC 7396)' }]);
  }
  const errors: FieldError[] = Object.keys(patch).flatMap((field) => {
    if (editable.includes(field)) return [];
    const why = readOnly[field];
    return [{ path: field, message: why ?? 'is not a known field' }];
  });
  if (errors.length) throw new ValidationFailed(errors);
  return patch;
}
