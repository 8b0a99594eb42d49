import type { ProblemError } from '../api/client';

/**
 * A problem+json answer, or what a form's own checks found, at the foot of a form: when fields were named, how many
 * need a change (their messages stand beside them) and the messages of fields no form control shows; otherwise the
 * problem's title and detail.
 */
export function ProblemView({ error, shownPaths = [] }: { error: ProblemError | null; shownPaths?: string[] }) {
  if (!error) return null;
  const { title, detail, errors = [] } = error.problem;
  const others = errors.filter((e) => !shownPaths.some((path) => isWithin(e.path, path)));
  const beside = errors.length - others.length;
  return (
    <div class="problem" role="alert">
      {errors.length > 0 ? (
        <>
          <strong>{error.local ? 'Not sent' : 'Not saved'}:</strong> {countOf(errors.length)} a change
          {beside > 0 && others.length === 0 && ', marked beside each'}.
        </>
      ) : (
        <>
          <strong>{title}</strong>
          {detail && <span> — {detail}</span>}
        </>
      )}
      {others.length > 0 && (
        <ul>
          {others.map((e) => (
            <li key={e.path + e.message}>
              <code>{e.path}</code>: {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function countOf(fields: number): string {
  return fields === 1 ? 'one field needs' : `${fields} fields need`;
}

/**
 * The messages the problem gives for one field: those whose `errors[].path` is the field's or lies within it (an
 * output schema's field answers for `outputSchema.properties.title.pattern`).
 */
export function fieldMessages(error: ProblemError | null, path: string): string[] {
  return (error?.problem.errors ?? []).filter((e) => isWithin(e.path, path)).map((e) => e.message);
}

function isWithin(errorPath: string, fieldPath: string): boolean {
  return errorPath === fieldPath || errorPath.startsWith(`${fieldPath}.`) || errorPath.startsWith(`${fieldPath}[`);
}
