import type { ComponentChildren } from 'preact';
import type { ProblemError } from '../api/client';
import { fieldMessages } from './problem-view';

interface FieldProps {
  id: string;
  label: string;
  /** The `errors[].path` this field answers for. */
  path?: string;
  error?: ProblemError | null;
  /** A message of the page's own (e.g. invalid JSON), shown like the service's. */
  localError?: string | null;
  hint?: ComponentChildren;
  children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

/** A labelled form control with its hint and the errors the service gave for it, wired for screen readers. */
export function Field({ id, label, path, error = null, localError, hint, children }: FieldProps) {
  const messages = [...(path ? fieldMessages(error, path) : []), ...(localError ? [localError] : [])];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = messages.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(describedBy, messages.length > 0)}
      {hint && (
        <div class="hint" id={hintId}>
          {hint}
        </div>
      )}
      {errorId && (
        <div class="field-error" id={errorId}>
          {messages.join('; ')}
        </div>
      )}
    </div>
  );
}
