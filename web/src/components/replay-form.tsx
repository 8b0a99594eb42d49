import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { navigate } from '../router';
import { Field } from './field';
import { ProblemView } from './problem-view';

/** Replays a run: the same context, and its task as edited here; opens the new run. */
export function ReplayForm({ agentId, runId, task }: { agentId: string; runId: string; task: string }) {
  const [draft, setDraft] = useState(task);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    try {
      const body = draft === task ? {} : { task: draft };
      const replay = unwrap(
        await api.POST('/v1/agents/{agentId}/runs/{runId}/replay', { params: { path: { agentId, runId } }, body }),
      );
      navigate('agents', agentId, 'runs', replay.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <details class="edit">
      <summary>Replay</summary>
      <form onSubmit={submit} class="card" noValidate aria-label="Replay run">
        <Field
          id="replay-task"
          label="Task"
          path="task"
          error={error}
          hint="The run's context is sent again; the agent runs as it is now."
        >
          {(describedBy, invalid) => (
            <textarea
              id="replay-task"
              rows={4}
              value={draft}
              onInput={(e) => setDraft(e.currentTarget.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <ProblemView error={error} shownPaths={['task']} />
        <button type="submit">Replay run</button>
      </form>
    </details>
  );
}
