import { MemoryFields } from './memory-fields';
import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Provider, Tool } from '../api/schema';
import { Field } from '../components/field';
import type { AgentDraft } from './agent-draft';
import { JsonSchemaField } from './json-schema-field';
import { EXAMPLE_OUTPUT_SCHEMA } from './json-schema-check';
import { GuardrailsEditor } from './guardrails-editor';
import { HandoffsPicker } from './handoffs-picker';
import { ScorersPicker } from './scorers-picker';
import { SubAgentsPicker } from './sub-agents-picker';
import { ToolsPicker } from './tools-picker';
import { useActiveAgents } from './use-active-agents';

/** The providers and tools the service offers, loaded once per form; a failure to load is shown as a problem. */
export function useAgentChoices(onError: (error: ProblemError) => void) {
  const [providers, setProviders] = useState<Provider[]>([]);
  const [tools, setTools] = useState<Tool[]>([]);
  useEffect(() => {
    api.GET('/v1/providers').then(
      (result) => setProviders(unwrap(result).providers),
      (caught) => onError(asProblem(caught)),
    );
    api.GET('/v1/tools').then(
      (result) => setTools(unwrap(result).tools),
      (caught) => onError(asProblem(caught)),
    );
  }, []);
  return { providers, tools };
}

/**
 * Every field of an agent, the same when creating and when editing: name, description, provider and model,
 * fallback models, instructions, tools and their approvals, the other agents it may call, the agents it may hand
 * off to, output schema, guardrails, thread window and max steps. `idPrefix` keeps two forms on a page apart; `agentId` is the agent
 * being edited, if any.
 */
export function AgentFields({
  draft,
  onChange,
  error,
  providers,
  tools,
  idPrefix,
  agentId,
}: {
  draft: AgentDraft;
  onChange: (draft: AgentDraft) => void;
  error: ProblemError | null;
  providers: Provider[];
  tools: Tool[];
  idPrefix: string;
  agentId?: string;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  // The handoffs and the judges are picked from the same list of active agents, read once.
  const activeAgents = useActiveAgents();
  const set = (change: Partial<AgentDraft>) => onChange({ ...draft, ...change });
  const chosen = providers.find((p) => p.id === draft.provider);
  const listed = providers.some((p) => p.id === draft.provider);
  function pickProvider(provider: string) {
    const models = providers.find((p) => p.id === provider)?.models ?? [];
    set({ provider, modelName: models.length && !models.includes(draft.modelName) ? models[0] : draft.modelName });
  }
  const text =
    (name: 'name' | 'description' | 'modelName' | 'fallbackModels' | 'instructions' | 'maxMessages' | 'maxSteps') =>
    (e: { currentTarget: { value: string } }) =>
      set({ [name]: e.currentTarget.value });

  return (
    <>
      <Field id={id('name')} label="Name" path="name" error={error} hint="Unique among agents; steps name it.">
        {(describedBy, invalid) => (
          <input
            id={id('name')}
            value={draft.name}
            onInput={text('name')}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field
        id={id('description')}
        label="Description (optional)"
        path="description"
        error={error}
        hint="What the agent is for, in a sentence or two (up to 1000 characters)."
      >
        {(describedBy, invalid) => (
          <input
            id={id('description')}
            value={draft.description}
            maxLength={1000}
            onInput={text('description')}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <div class="row">
        <Field
          id={id('provider')}
          label="Provider"
          hint={chosen && !chosen.configured ? `Not configured: set ${chosen.variable} and restart` : undefined}
        >
          {(describedBy) => (
            <select
              id={id('provider')}
              value={draft.provider}
              onChange={(e) => pickProvider(e.currentTarget.value)}
              aria-describedby={describedBy}
            >
              {!listed && <option value={draft.provider}>{draft.provider || 'Choose a provider'}</option>}
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.configured ? p.id : `${p.id} (not configured)`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          id={id('model')}
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
                id={id('model')}
                list={id('models')}
                value={draft.modelName}
                onInput={text('modelName')}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
              <datalist id={id('models')}>
                {(chosen?.models ?? []).map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>
      <Field
        id={id('fallback-models')}
        label="Fallback models (optional)"
        path="fallbackModels"
        error={error}
        hint="One provider/model a line, up to 5: a model call is made again on the next one when the provider fails (unreachable, 5xx, 429 after retries). Blank: none."
      >
        {(describedBy, invalid) => (
          <textarea
            id={id('fallback-models')}
            class="mono"
            rows={2}
            value={draft.fallbackModels}
            onInput={text('fallbackModels')}
            placeholder="anthropic/claude-3-5-haiku-latest"
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field id={id('instructions')} label="Instructions" path="instructions" error={error} hint="The system prompt.">
        {(describedBy, invalid) => (
          <textarea
            id={id('instructions')}
            rows={4}
            value={draft.instructions}
            onInput={text('instructions')}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <ToolsPicker
        available={tools}
        choice={{ tools: draft.tools, approvalRequired: draft.approvalRequired }}
        onChange={(choice) => set(choice)}
      />
      <SubAgentsPicker
        choice={{ tools: draft.tools, recursive: draft.recursive }}
        onChange={(choice) => set(choice)}
        selfId={agentId}
        selfName={draft.name}
      />
      <HandoffsPicker
        handoffs={draft.handoffs}
        onChange={(handoffs) => set({ handoffs })}
        agents={activeAgents}
        selfId={agentId}
        selfName={draft.name}
        error={error}
        idPrefix={idPrefix}
      />
      <ScorersPicker
        scorers={draft.scorers}
        onChange={(scorers) => set({ scorers })}
        error={error}
        idPrefix={idPrefix}
      />
      <JsonSchemaField
        id={id('output-schema')}
        label="Output schema (JSON Schema, optional)"
        path="outputSchema"
        text={draft.outputSchema}
        onChange={(outputSchema) => set({ outputSchema })}
        error={error}
        example={EXAMPLE_OUTPUT_SCHEMA}
        hint={
          <>
            With one, a run's answer is a JSON object that matches it (<code>outputObject</code>), and a step can use{' '}
            <code>{'{{steps.<id>.output.<field>}}'}</code>. Blank: a free-text answer.
          </>
        }
      />
      <GuardrailsEditor
        draft={draft.guardrails}
        onChange={(guardrails) => set({ guardrails })}
        error={error}
        agents={activeAgents}
        idPrefix={idPrefix}
      />
      <div class="row">
        <Field
          id={id('max-messages')}
          label="Thread window (messages)"
          path="memory.maxMessages"
          error={error}
          hint="On a thread, how many of its last messages a run sees (0 to 1000)"
        >
          {(describedBy, invalid) => (
            <input
              id={id('max-messages')}
              type="number"
              min={0}
              max={1000}
              value={draft.maxMessages}
              onInput={text('maxMessages')}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field
          id={id('max-steps')}
          label="Max steps"
          path="maxSteps"
          error={error}
          hint="Model calls one run may make (1 to 100)"
        >
          {(describedBy, invalid) => (
            <input
              id={id('max-steps')}
              type="number"
              min={1}
              max={100}
              value={draft.maxSteps}
              onInput={text('maxSteps')}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
      </div>
      <MemoryFields draft={draft} set={set} error={error} id={id} />
    </>
  );
}
