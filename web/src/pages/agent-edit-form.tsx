import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Agent } from '../api/schema';
import { CONFLICT_MESSAGE, isEditConflict } from '../components/conflict';
import { ProblemView } from '../components/problem-view';
import { AGENT_PATHS, AgentDraft, agentBody, agentDraft } from '../forms/agent-draft';
import { AgentFields, useAgentChoices } from '../forms/agent-fields';
import { formProblem } from '../forms/form-problem';

/**
 * Edits every field of an agent, with the create form's fields, as a merge patch sent with If-Match, so that
 * nobody's change is overwritten unseen.
 */
export function AgentEditForm({ agent, onSaved }: { agent: Agent; onSaved: (agent: Agent) => void }) {
  const [draft, setDraft] = useState<AgentDraft>(agentDraft(agent));
  const [error, setError] = useState<ProblemError | null>(null);
  const { providers, tools } = useAgentChoices(setError);

  async function submit(event: Event) {
    event.preventDefault();
    const { body, problems } = agentBody(draft, providers.length ? providers.map((p) => p.id) : undefined);
    const found = formProblem(problems);
    setError(found);
    if (found) return;
    try {
      const saved = unwrap(
        await api.PATCH('/v1/agents/{agentId}', {
          params: { path: { agentId: agent.id }, header: { 'If-Match': `"${agent.version}"` } },
          // Every field is sent; a blank output schema is null, which removes it.
          body,
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
      <AgentFields
        draft={draft}
        onChange={setDraft}
        error={error}
        providers={providers}
        tools={tools}
        idPrefix="edit-agent"
        agentId={agent.id}
      />
      {isEditConflict(error) ? (
        <div class="problem" role="alert">
          <strong>Changed by someone else.</strong> {CONFLICT_MESSAGE}{' '}
          <button type="button" class="secondary" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      ) : (
        <ProblemView error={error} shownPaths={AGENT_PATHS} />
      )}
      <button type="submit">Save changes</button>
    </form>
  );
}
