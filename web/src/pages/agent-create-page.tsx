import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Tool } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { href, navigate } from '../router';

/** The providers the service knows (see the README's Models); which are configured is not something it lists. */
export const PROVIDERS = ['openai-compatible', 'openai', 'anthropic', 'ollama'] as const;

export function AgentCreatePage() {
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<string>(PROVIDERS[0]);
  const [modelName, setModelName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [maxSteps, setMaxSteps] = useState('10');
  const [tools, setTools] = useState<Tool[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.GET('/v1/tools').then(
      (result) => setTools(unwrap(result).tools),
      (caught) => setError(asProblem(caught)),
    );
  }, []);

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
          <Field id="agent-provider" label="Provider">
            {() => (
              <select id="agent-provider" value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
                {PROVIDERS.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="agent-model"
            label="Model name"
            path="model"
            error={error}
            hint="As the provider names it, e.g. llama3.2 or gpt-4o-mini"
          >
            {(describedBy, invalid) => (
              <input
                id="agent-model"
                value={modelName}
                onInput={(e) => setModelName(e.currentTarget.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
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
