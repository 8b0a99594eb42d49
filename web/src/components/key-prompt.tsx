import { useState } from 'preact/hooks';
import { setApiKey } from '../api/api-key';

/** Asks for an API key when the service wants one; it is kept in sessionStorage for this tab's session. */
export function KeyPrompt({ onDone }: { onDone: () => void }) {
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
        <div class="field">
          <label for="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            autoComplete="off"
            required
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
        </div>
        <button type="submit">Continue</button>
      </form>
    </main>
  );
}
