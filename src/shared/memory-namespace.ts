/**
 * The rules of a memory namespace (`users/ada`), shared by the memory routes and the agents whose runs name one:
 * 1 to 8 segments joined by `/`, each of letters, digits, `_`, `.` and `-` (at most 100, not dots alone).
 */
export const MAX_NAMESPACE_SEGMENTS = 8;
const SEGMENT = /^(?!\.+$)[A-Za-z0-9_.-]{1,100}$/;

export const NAMESPACE_RULE = `1 to ${MAX_NAMESPACE_SEGMENTS} segments joined by "/", each of letters, digits, "_", "." and "-" (not dots alone)`;

/** What is wrong with a namespace, or undefined when nothing is. */
export function namespaceProblem(namespace: unknown): string | undefined {
  if (typeof namespace !== 'string') return 'must be a string';
  const segments = namespace.split('/');
  if (segments.length > MAX_NAMESPACE_SEGMENTS || !segments.every((segment) => SEGMENT.test(segment))) {
    return `must be ${NAMESPACE_RULE}`;
  }
  return undefined;
}

/** A placeholder of a namespace template: a path into the run's context. */
export const CONTEXT_PLACEHOLDER = /\{\{\s*context\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;

/**
 * What is wrong with a namespace template (`users/{{context.userId}}`), or undefined: its only placeholders are
 * paths into the context, and with each filled in by a word it is a namespace.
 */
export function namespaceTemplateProblem(template: string): string | undefined {
  const filled = template.replace(CONTEXT_PLACEHOLDER, 'x');
  if (filled.includes('{{')) return 'may hold only {{context.<path>}} placeholders';
  return namespaceProblem(filled);
}

/** The namespace a template gives for a context: undefined when a placeholder's path leads to no segment. */
export function fillNamespace(template: string, context: Record<string, unknown>): string | undefined {
  let missing = false;
  const filled = template.replace(CONTEXT_PLACEHOLDER, (_, path: string) => {
    const value = path
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown> | null)?.[part], context);
    // Each placeholder fills one segment: a value with a "/" would reach into another namespace.
    if ((typeof value !== 'string' && typeof value !== 'number') || String(value).includes('/')) missing = true;
    return String(value);
  });
  return missing || namespaceProblem(filled) ? undefined : filled;
}
