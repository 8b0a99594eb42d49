import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { type FieldProblem, formProblem, parseJsonField } from '../forms/form-problem';
import { ProblemView } from './problem-view';
import { TextAreaField } from './text-area-field';
import { TextInputField } from './text-input-field';
import type { SignalData } from '../api/schema';

/**
 * Sends a signal (`POST /v1/signals`): its name and key as the waiting step asks for them (either may be changed),
 * and its data as JSON. Tells `onSent` how many waiting runs it reached; the run's page then shows the step go on.
 */
export function SendSignal({
  signal,
  signalKey,
  onSent,
}: {
  signal: string;
  signalKey: string | null;
  onSent: (reached: number) => void;
}) {
  const [name, setName] = useState(signal);
  const [key, setKey] = useState(signalKey ?? '');
  const [data, setData] = useState('');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(event: Event) {
    event.preventDefault();
    const problems: FieldProblem[] = [];
    const parsed = parseJsonField(data, 'data', problems, 'any');
    if (problems.length) return setError(formProblem(problems));
    setBusy(true);
    try {
      const body = { name, ...(key && { key }), ...(parsed !== undefined && { data: parsed as SignalData }) };
      const sent = unwrap(await api.POST('/v1/signals', { body }));
      setError(null);
      onSent(sent.delivered.length);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card" aria-labelledby="send-signal-heading" data-testid="send-signal">
      <h2 id="send-signal-heading">Waiting for a signal</h2>
      <form onSubmit={send} noValidate>
        <div class="row">
          <TextInputField id="signal-name" label="Signal" path="name" value={name} onInput={setName} error={error} />
          <TextInputField
            id="signal-key"
            label="Key"
            path="key"
            value={key}
            onInput={setKey}
            error={error}
            hint="Blank: none (it then reaches only the waits for any key)."
          />
        </div>
        <TextAreaField
          id="signal-data"
          label="Data (optional JSON, the step's output)"
          path="data"
          value={data}
          onInput={setData}
          error={error}
          mono
        />
        <ProblemView error={error} shownPaths={['name', 'key', 'data']} />
        <button type="submit" disabled={busy}>
          Send signal
        </button>
      </form>
    </section>
  );
}
