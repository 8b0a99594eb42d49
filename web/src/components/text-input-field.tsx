import type { ProblemError } from '../api/client';
import { Field } from './field';

interface TextInputFieldProps {
  id: string;
  label: string;
  /** The field's `errors[].path`, whose messages show beside it. */
  path: string;
  value: string;
  onInput: (value: string) => void;
  error: ProblemError | null;
  hint?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
}

/** A labelled one-line input with its hint and the problems the service or the form found in it. */
export function TextInputField({ id, label, path, value, onInput, error, hint, inputMode }: TextInputFieldProps) {
  return (
    <Field id={id} label={label} path={path} error={error} hint={hint}>
      {(describedBy, invalid) => (
        <input
          id={id}
          inputMode={inputMode}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
