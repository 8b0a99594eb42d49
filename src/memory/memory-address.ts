import { namespaceProblem } from '../shared/memory-namespace';
import { ValidationFailed } from '../shared/validation-failed';

/** A key: letters, digits, `_`, `.` and `-`, at most 200, not dots alone. */
export const MEMORY_KEY = /^(?!\.+$)[A-Za-z0-9_.-]{1,200}$/;

/** The most an item's value may take, as JSON. */
export const MAX_MEMORY_VALUE_BYTES = 64 * 1024;

export const KEY_RULE = 'letters, digits, "_", "." and "-" (at most 200, not dots alone)';

/** The namespace (and the key) of a route, checked: a 400 naming the part that is not one. */
export function checkAddress(namespace: string, key?: string): void {
  const errors = [];
  const problem = namespaceProblem(namespace);
  if (problem) errors.push({ path: 'namespace', message: problem });
  if (key !== undefined && !MEMORY_KEY.test(key)) errors.push({ path: 'key', message: `must be ${KEY_RULE}` });
  if (errors.length) throw new ValidationFailed(errors);
}
