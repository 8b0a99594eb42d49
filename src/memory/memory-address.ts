import { ValidationFailed } from '../shared/validation-failed';

/** A namespace: 1 to 8 segments joined by `/`; a segment (or a key): letters, digits, `_`, `.` and `-`. */
export const MAX_NAMESPACE_SEGMENTS = 8;
const SEGMENT = /^(?!\.+$)[A-Za-z0-9_.-]{1,100}$/;
const KEY = /^(?!\.+$)[A-Za-z0-9_.-]{1,200}$/;

/** The rule of a namespace, as a problem says it. */
export const NAMESPACE_RULE = `1 to ${MAX_NAMESPACE_SEGMENTS} segments joined by "/", each of letters, digits, "_", "." and "-" (not dots alone)`;
export const KEY_RULE = 'letters, digits, "_", "." and "-" (at most 200, not dots alone)';

export function namespaceProblem(namespace: unknown): string | undefined {
  if (typeof namespace !== 'string') return 'must be a string';
  const segments = namespace.split('/');
  if (segments.length > MAX_NAMESPACE_SEGMENTS || !segments.every((segment) => SEGMENT.test(segment))) {
    return `must be ${NAMESPACE_RULE}`;
  }
  return undefined;
}

/** The namespace (and the key) of a route, checked: a 400 naming the part that is not one. */
export function checkAddress(namespace: string, key?: string): void {
  const errors = [];
  const problem = namespaceProblem(namespace);
  if (problem) errors.push({ path: 'namespace', message: problem });
  if (key !== undefined && !KEY.test(key)) errors.push({ path: 'key', message: `must be ${KEY_RULE}` });
  if (errors.length) throw new ValidationFailed(errors);
}
