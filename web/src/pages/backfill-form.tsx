import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { components } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { formatTime } from '../format';
import { href } from '../router';

type Backfill = components['schemas']['BackfillSchema'];

/** A time typed in a `datetime-local` field (the browser's zone) as the API takes it; blank stays blank. */
function asInstant(local: string): string {
  const time = new Date(local);
  return local && !Number.isNaN(+time) ? time.toISOString() : local;
}

/** Runs the schedule's ticks of a past window, and lists what became of each. */
export function BackfillForm({ workflowId }: { workflowId: string }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [done, setDone] = useState<Backfill | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const body = { from: asInstant(from), to: asInstant(to) };
      setDone(
        unwrap(await api.POST('/v1/workflows/{workflowId}/backfill', { params: { path: { workflowId } }, body })),
      );
    } catch (caught) {
      setDone(null);
      setError(asProblem(caught));
    }
  }

  const field = (id: string, label: string, path: 'from' | 'to', value: string, set: (value: string) => void) => (
    <Field id={id} label={label} path={path} error={error}>
      {(describedBy, invalid) => (
        <input
          id={id}
          type="datetime-local"
          value={value}
          onInput={(e) => set(e.currentTarget.value)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      )}
    </Field>
  );

  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Backfill">
      <h2>Backfill</h2>
      <p class="muted">
        Runs every tick the schedule had in a past window (at most 1,000), as the overlap policy and the limits on runs
        at once allow.
      </p>
      <div class="row">
        {field('backfill-from', 'From', 'from', from, setFrom)}
        {field('backfill-to', 'To', 'to', to, setTo)}
      </div>
      <ProblemView error={error} shownPaths={['from', 'to']} />
      <button type="submit">Backfill</button>
      {done && (
        <ol data-testid="backfill-ticks">
          {done.ticks.length === 0 && <li class="muted">The schedule had no tick in that window.</li>}
          {done.ticks.map((tick) => (
            <li key={tick.scheduledFor} data-outcome={tick.outcome}>
              {formatTime(tick.scheduledFor)}: {tick.outcome}
              {tick.runId && (
                <>
                  {' '}
                  <a href={href('workflows', workflowId, 'runs', tick.runId)}>{tick.runId}</a>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}
