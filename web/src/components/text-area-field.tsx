import type { ProblemError } from '../api/client';
import { Field } from './field';

interface TextAreaFieldProps {
  id: string;
  label: string;
  /** The field's `errors[].path`, whose messages show beside it. */
  path: string;
  value: string;
  onInput: (value: string) => void;
  error: ProblemError | null;
  hint?: string;
  rows?: number;
  mono?: boolean;
}

/** A labelled text area with its hint and the problems the service or the form found in it. */
export function TextAreaField({ id, label, path, value, onInput, error, hint, rows = 3, mono }: TextAreaFieldProps) {
  return (
    <Field id={id} label={label} path={path} error={error} hint={hint}>
      {(describedBy, invalid) => (
        <textarea
          id={id}
          rows={rows}
          class={mono ? 'mono' : undefined}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
