import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { ProblemView } from '../components/problem-view';
import { AGENT_PATHS, AgentDraft, agentBody, agentDraft, defaultProvider } from '../forms/agent-draft';
import { AgentFields, useAgentChoices } from '../forms/agent-fields';
import { formProblem } from '../forms/form-problem';
import { href, navigate } from '../router';

/** A new agent, every field of it; the form checks what it can before sending. */
export function AgentCreatePage() {
  const [draft, setDraft] = useState<AgentDraft>(agentDraft());
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);
  const { providers, tools } = useAgentChoices(setError);
  // Until a provider is picked, the default one and its first model.
  const shown =
    draft.provider || !providers.length
      ? draft
      : {
          ...draft,
          provider: defaultProvider(providers)?.id ?? '',
          modelName: draft.modelName || (defaultProvider(providers)?.models?.[0] ?? ''),
        };

  async function submit(event: Event) {
    event.preventDefault();
    const { body, problems } = agentBody(shown, providers.length ? providers.map((p) => p.id) : undefined);
    const found = formProblem(problems);
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      const { outputSchema, ...rest } = body;
      const agent = unwrap(await api.POST('/v1/agents', { body: { ...rest, ...(outputSchema && { outputSchema }) } }));
      navigate('agents', agent.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main>
      <p>
        <a href={href('agents')}>← Agents</a>
      </p>
      <h1>New agent</h1>
      <form onSubmit={submit} noValidate>
        <AgentFields
          draft={shown}
          onChange={setDraft}
          error={error}
          providers={providers}
          tools={tools}
          idPrefix="agent"
        />
        <ProblemView error={error} shownPaths={AGENT_PATHS} />
        <button type="submit" disabled={busy}>
          Create agent
        </button>
      </form>
    </main>
  );
}
