import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Agent } from '../api/schema';
import { CONFLICT_MESSAGE, isEditConflict } from '../components/conflict';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';

/** Edits an agent with a merge patch sent with If-Match, so that nobody's change is overwritten unseen. */
export function AgentEditForm({ agent, onSaved }: { agent: Agent; onSaved: (agent: Agent) => void }) {
  const [model, setModel] = useState(agent.model);
  const [instructions, setInstructions] = useState(agent.instructions);
  const [maxSteps, setMaxSteps] = useState(String(agent.maxSteps));
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    try {
      const saved = unwrap(
        await api.PATCH('/v1/agents/{agentId}', {
          params: { path: { agentId: agent.id }, header: { 'If-Match': `"${agent.version}"` } },
          body: { model, instructions, maxSteps: Number(maxSteps) },
          headers: { 'content-type': 'application/merge-patch+json' },
        }),
      );
      setError(null);
      onSaved(saved);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form onSubmit={submit} class="card" noValidate aria-label="Edit agent">
      <h2>Edit</h2>
      <Field id="edit-model" label="Model" path="model" error={error} hint="provider/model, e.g. ollama/llama3.2">
        {(describedBy, invalid) => (
          <input
            id="edit-model"
            value={model}
            onInput={(e) => setModel(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field id="edit-instructions" label="Instructions" path="instructions" error={error}>
        {(describedBy, invalid) => (
          <textarea
            id="edit-instructions"
            rows={3}
            value={instructions}
            onInput={(e) => setInstructions(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field id="edit-max-steps" label="Max steps" path="maxSteps" error={error}>
        {(describedBy, invalid) => (
          <input
            id="edit-max-steps"
            type="number"
            min={1}
            max={100}
            value={maxSteps}
            onInput={(e) => setMaxSteps(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      {isEditConflict(error) ? (
        <div class="problem" role="alert">
          <strong>Changed by someone else.</strong> {CONFLICT_MESSAGE}{' '}
          <button type="button" class="secondary" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      ) : (
        <ProblemView error={error} shownPaths={['model', 'instructions', 'maxSteps']} />
      )}
      <button type="submit">Save changes</button>
    </form>
  );
}
