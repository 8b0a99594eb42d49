import type { ProblemError } from '../api/client';

/** A problem+json answer as its title and detail, with the field errors no form field has shown. */
export function ProblemView({ error, shownPaths = [] }: { error: ProblemError | null; shownPaths?: string[] }) {
  if (!error) return null;
  const { title, detail, errors } = error.problem;
  const others = (errors ?? []).filter((e) => !shownPaths.includes(e.path));
  return (
    <div class="problem" role="alert">
      <strong>{title}</strong>
      {detail && <span> — {detail}</span>}
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

/** The messages the problem gives for one field (by its `errors[].path`). */
export function fieldMessages(error: ProblemError | null, path: string): string[] {
  return (error?.problem.errors ?? []).filter((e) => e.path === path).map((e) => e.message);
}
