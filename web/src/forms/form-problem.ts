import { ProblemError } from '../api/client';

/** A field the form found wrong before sending: its `errors[].path`, as the service names it, and why. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * What a form's own checks found, as a problem shaped like the service's, so that each message shows beside its
 * field as the service's do; null when nothing was found and the form may be sent.
 */
export function formProblem(problems: FieldProblem[]): ProblemError | null {
  if (!problems.length) return null;
  return new ProblemError(
    { type: 'about:blank', title: 'Not sent', status: 0, errors: problems } as ProblemError['problem'],
    true,
  );
}

/** A JSON field's text parsed, or a problem for its path; blank is `undefined`. */
export function parseJsonField(
  text: string,
  path: string,
  problems: FieldProblem[],
  kind: 'object' | 'any' = 'object',
): unknown {
  if (!text.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (kind === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      problems.push({ path, message: 'must be a JSON object' });
    }
    return value;
  } catch (error) {
    problems.push({ path, message: `is not valid JSON: ${(error as Error).message}` });
    return undefined;
  }
}

/** A whole number typed in a field, or a problem saying its range. */
export function parseCount(text: string, path: string, min: number, max: number, problems: FieldProblem[]): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    problems.push({ path, message: `must be a whole number from ${min} to ${max}` });
  }
  return value;
}

/**
 * The service's messages about a list field (`handoffs`, `handoffs[1].input`), each led by the name of the entry
 * it is about (`names[i]`), so that it can be told which entry to change.
 */
export function listMessages(error: ProblemError | null, field: string, names: Array<string | undefined>): string[] {
  return (error?.problem.errors ?? [])
    .filter((e) => e.path === field || e.path.startsWith(`${field}[`))
    .map((e) => {
      const index = new RegExp(`^${field}\\[(\\d+)\\]`).exec(e.path)?.[1];
      const name = index === undefined ? undefined : names[Number(index)];
      return name ? `${name}: ${e.message}` : e.message;
    });
}
