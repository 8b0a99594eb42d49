import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import { checkObjectSchema } from './json-schema-check';

/**
 * A JSON Schema typed as JSON, with a line that says at once whether it is valid (and where it is not), and a button
 * that fills in an example to start from. Blank means no schema.
 */
export function JsonSchemaField({
  id,
  label,
  path,
  text,
  onChange,
  error,
  example,
  hint,
}: {
  id: string;
  label: string;
  /** The `errors[].path` of the field, e.g. `outputSchema`. */
  path: string;
  text: string;
  onChange: (text: string) => void;
  error: ProblemError | null;
  example: Record<string, unknown>;
  hint: preact.ComponentChildren;
}) {
  const check = text.trim() ? checkObjectSchema(text) : null;
  return (
    <Field id={id} label={label} path={path} error={error} hint={hint}>
      {(describedBy, invalid) => (
        <>
          <textarea
            id={id}
            class="mono"
            rows={text.trim() ? Math.min(14, text.split('\n').length + 1) : 3}
            value={text}
            spellcheck={false}
            onInput={(e) => onChange(e.currentTarget.value)}
            aria-describedby={[describedBy, `${id}-check`].filter(Boolean).join(' ')}
            aria-invalid={invalid || check?.ok === false}
          />
          <div class="schema-check" id={`${id}-check`} aria-live="polite">
            {check === null ? (
              <span class="muted">No schema.</span>
            ) : check.ok ? (
              <span class="ok">✓ A valid JSON Schema.</span>
            ) : (
              <span class="bad">✗ {check.message}</span>
            )}{' '}
            {!text.trim() && (
              <button type="button" class="secondary small" onClick={() => onChange(JSON.stringify(example, null, 2))}>
                Start from an example
              </button>
            )}
          </div>
        </>
      )}
    </Field>
  );
}
