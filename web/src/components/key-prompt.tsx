import { useState } from 'preact/hooks';
import { setApiKey } from '../api/api-key';
import { Field } from './field';

/**
 * Asks for an API key when the service wants one; it is kept in sessionStorage for this tab's session.
 * `refused`: the last key given was turned down, which the prompt says.
 */
export function KeyPrompt({ refused, onDone }: { refused: boolean; onDone: () => void }) {
  const [key, setKey] = useState('');
  return (
    <main class="key-prompt">
      <h1>API key needed</h1>
      <p>This service runs with API keys. Enter one to continue; it is kept for this browser session only.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setApiKey(key.trim());
          onDone();
        }}
      >
        <Field
          id="api-key"
          label="API key"
          localError={refused ? 'The service refused this key: check it, or ask for another one.' : null}
        >
          {(describedBy, invalid) => (
            <input
              id="api-key"
              type="password"
              autoComplete="off"
              required
              autoFocus={refused}
              aria-invalid={invalid ? 'true' : undefined}
              aria-describedby={describedBy}
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit">Continue</button>
      </form>
    </main>
  );
}
