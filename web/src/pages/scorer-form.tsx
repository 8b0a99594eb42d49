import { useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Scorer } from '../api/schema';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { TextAreaField } from '../components/text-area-field';
import { TextInputField } from '../components/text-input-field';
import { type FieldProblem, formProblem, parseJsonField } from '../forms/form-problem';
import { useActiveAgents } from '../forms/use-active-agents';
import { AgentNameField } from '../forms/agent-name-field';
import { navigate } from '../router';

type ScorerType = Scorer['type'];
const TYPES: Array<{ value: ScorerType; label: string }> = [
  { value: 'exact', label: 'exact: the answer expected' },
  { value: 'contains', label: 'contains: the answer expected within the output' },
  { value: 'json_schema', label: 'json_schema: the output matches a JSON Schema' },
  { value: 'rule', label: 'rule: a JSON Logic rule over the answer and its run' },
  { value: 'judge', label: 'judge: an agent scores it against a rubric' },
];

/** Defines a scorer: its name and type, and the fields that type reads (the form shows only those). */
export function ScorerForm() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<ScorerType>('exact');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [schema, setSchema] = useState('{"type": "object"}');
  const [rule, setRule] = useState('{"<": [{"var": "run.durationMs"}, 2000]}');
  const [agent, setAgent] = useState('');
  const [rubric, setRubric] = useState('');
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);
  const agents = useActiveAgents();

  function body(problems: FieldProblem[]) {
    const base = { name, description, type };
    if (type === 'exact' || type === 'contains') return { ...base, caseSensitive };
    if (type === 'json_schema') return { ...base, schema: parseJsonField(schema, 'schema', problems) };
    if (type === 'rule') return { ...base, rule: parseJsonField(rule, 'rule', problems, 'any') };
    return { ...base, agent: agent || (agents.agents[0]?.name ?? ''), rubric };
  }

  async function submit(event: Event) {
    event.preventDefault();
    const problems: FieldProblem[] = [];
    const payload = body(problems);
    if (problems.length) return setError(formProblem(problems));
    setBusy(true);
    try {
      const scorer = unwrap(await api.POST('/v1/scorers', { body: payload as never }));
      navigate('scorers', scorer.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  const area = (id: string, label: string, path: string, value: string, set: (v: string) => void, hint?: string) => (
    <TextAreaField {...{ id, label, path, value, hint, error }} onInput={set} rows={4} mono />
  );

  return (
    <section aria-labelledby="new-scorer">
      <h2 id="new-scorer">New scorer</h2>
      <form class="card" onSubmit={submit} noValidate>
        <TextInputField
          id="scorer-name"
          label="Name"
          path="name"
          value={name}
          onInput={setName}
          error={error}
          hint="Unique among active scorers"
        />
        {area('scorer-description', 'Description', 'description', description, setDescription, 'Optional')}
        <Field id="scorer-type" label="Type" path="type" error={error}>
          {(describedBy, invalid) => (
            <select
              id="scorer-type"
              value={type}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setType(e.currentTarget.value as ScorerType)}
            >
              {TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {(type === 'exact' || type === 'contains') && (
          <label class="checkbox">
            <input
              type="checkbox"
              checked={caseSensitive}
              onChange={(e) => setCaseSensitive(e.currentTarget.checked)}
            />{' '}
            Case counts
          </label>
        )}
        {type === 'json_schema' && area('scorer-schema', 'Schema (JSON Schema)', 'schema', schema, setSchema)}
        {type === 'rule' &&
          area(
            'scorer-rule',
            'Rule (JSON Logic)',
            'rule',
            rule,
            setRule,
            'Over {input, output, outputObject, expected, run: {toolCalls, usage, durationMs}}: true is 1, false 0',
          )}
        {type === 'judge' && (
          <>
            <AgentNameField
              id="scorer-agent"
              label="Judge agent"
              path="agent"
              error={error}
              agents={agents.agents}
              value={agent}
              onChange={setAgent}
            />
            {area('scorer-rubric', 'Rubric', 'rubric', rubric, setRubric, 'What a good answer is')}
          </>
        )}
        <ProblemView error={error} shownPaths={['name', 'description', 'type', 'schema', 'rule', 'agent', 'rubric']} />
        <button type="submit" disabled={busy}>
          Create scorer
        </button>
      </form>
    </section>
  );
}
