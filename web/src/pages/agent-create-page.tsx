import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Provider, Tool } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { href, navigate } from '../router';

/** The provider a new agent starts with: a configured one that listed models, else any configured one. */
export function defaultProvider(providers: Provider[]): Provider | undefined {
  return providers.find((p) => p.configured && p.models?.length) ?? providers.find((p) => p.configured) ?? providers[0];
}

export function AgentCreatePage() {
  const [name, setName] = useState('');
  const [providers, setProviders] = useState<Provider[]>([]);
  const [provider, setProvider] = useState<string>('');
  const [modelName, setModelName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [maxSteps, setMaxSteps] = useState('10');
  const [tools, setTools] = useState<Tool[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.GET('/v1/providers').then(
      (result) => {
        const listed = unwrap(result).providers;
        setProviders(listed);
        const chosen = defaultProvider(listed);
        setProvider((current) => current || chosen?.id || '');
        setModelName((current) => current || chosen?.models?.[0] || '');
      },
      (caught) => setError(asProblem(caught)),
    );
    api.GET('/v1/tools').then(
      (result) => setTools(unwrap(result).tools),
      (caught) => setError(asProblem(caught)),
    );
  }, []);

  const chosen = providers.find((p) => p.id === provider);
  function pickProvider(id: string) {
    setProvider(id);
    const models = providers.find((p) => p.id === id)?.models ?? [];
    if (!models.includes(modelName)) setModelName(models[0] ?? '');
  }

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const body = {
        name,
        model: `${provider}/${modelName.trim()}`,
        instructions,
        tools: picked,
        maxSteps: Number(maxSteps),
      };
      const agent = unwrap(await api.POST('/v1/agents', { body }));
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
        <Field id="agent-name" label="Name" path="name" error={error}>
          {(describedBy, invalid) => (
            <input
              id="agent-name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <div class="row">
          <Field
            id="agent-provider"
            label="Provider"
            hint={chosen && !chosen.configured ? `Not configured: set ${chosen.variable} and restart` : undefined}
          >
            {(describedBy) => (
              <select
                id="agent-provider"
                value={provider}
                onChange={(e) => pickProvider(e.currentTarget.value)}
                aria-describedby={describedBy}
              >
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.configured ? p.id : `${p.id} (not configured)`}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="agent-model"
            label="Model name"
            path="model"
            error={error}
            hint={
              chosen?.models?.length
                ? `${chosen.models.length} offered by ${chosen.id}; or type another`
                : chosen?.modelsError
                  ? `Could not list its models (${chosen.modelsError}); type one, e.g. llama3.2`
                  : 'As the provider names it, e.g. llama3.2 or gpt-4o-mini'
            }
          >
            {(describedBy, invalid) => (
              <>
                <input
                  id="agent-model"
                  list="agent-models"
                  value={modelName}
                  onInput={(e) => setModelName(e.currentTarget.value)}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
                <datalist id="agent-models">
                  {(chosen?.models ?? []).map((m) => (
                    <option key={m} value={m} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </div>
        <Field id="agent-instructions" label="Instructions" path="instructions" error={error}>
          {(describedBy, invalid) => (
            <textarea
              id="agent-instructions"
              rows={4}
              value={instructions}
              onInput={(e) => setInstructions(e.currentTarget.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <fieldset>
          <legend>Tools</legend>
          {tools.length === 0 && <p class="muted">No tools available.</p>}
          {tools.map((tool) => (
            <label class="checkbox" key={tool.id}>
              <input
                type="checkbox"
                checked={picked.includes(tool.id)}
                onChange={(e) =>
                  setPicked(e.currentTarget.checked ? [...picked, tool.id] : picked.filter((id) => id !== tool.id))
                }
              />{' '}
              <code>{tool.id}</code> <span class="muted">{tool.description}</span>
            </label>
          ))}
        </fieldset>
        <Field
          id="agent-max-steps"
          label="Max steps"
          path="maxSteps"
          error={error}
          hint="Model calls one run may make (1 to 100)"
        >
          {(describedBy, invalid) => (
            <input
              id="agent-max-steps"
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
        <ProblemView error={error} shownPaths={['name', 'model', 'instructions', 'maxSteps']} />
        <button type="submit" disabled={busy}>
          Create agent
        </button>
      </form>
    </main>
  );
}
