import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ProblemError } from '../api/client';
import { Field } from '../components/field';

export type StepContext = 'input' | 'steps' | 'all';

export interface StepDraft {
  agent: string;
  action: string;
  context?: StepContext;
}

const CONTEXTS: Array<{ value: '' | StepContext; label: string }> = [
  { value: '', label: 'Only the task (default)' },
  { value: 'input', label: 'The task and the run input' },
  { value: 'steps', label: "The task and the earlier steps' outputs" },
  { value: 'all', label: 'The task, the input and the earlier outputs' },
];

/** The paths of the step fields, for the problem view to leave to them. */
export function stepPaths(steps: StepDraft[]): string[] {
  return steps.flatMap((_, i) => [`steps[${i}].agent`, `steps[${i}].action`, `steps[${i}].context`]);
}

/** The names of the agents a step may name (active ones), offered as a list while typing. */
function useAgentNames(): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    api.GET('/v1/agents', { params: { query: { limit: 200 } } }).then(
      (result) => setNames(unwrap(result).agents.map((agent) => agent.name)),
      () => setNames([]),
    );
  }, []);
  return names;
}

/** A workflow's steps, numbered from 0 as `{{steps.N.output}}` counts them: agent, action, context. */
export function StepsEditor({
  steps,
  onChange,
  error,
}: {
  steps: StepDraft[];
  onChange: (steps: StepDraft[]) => void;
  error: ProblemError | null;
}) {
  const agents = useAgentNames();
  const update = (index: number, change: Partial<StepDraft>) =>
    onChange(steps.map((s, i) => (i === index ? { ...s, ...change } : s)));
  return (
    <fieldset>
      <legend>Steps</legend>
      <p class="hint">
        Each step runs an agent (by name, picked from the list or typed). In the action,{' '}
        <code>{'{{input.topic}}'}</code> is the run's input and <code>{'{{steps.0.output}}'}</code> an earlier step's
        output; the agent is sent the action with those filled in, and only that unless you choose more.
      </p>
      <datalist id="agent-names">
        {agents.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ol class="steps" start={0}>
        {steps.map((step, i) => (
          <li key={i} class="card">
            <Field id={`step-${i}-agent`} label={`Step ${i} agent`} path={`steps[${i}].agent`} error={error}>
              {(describedBy, invalid) => (
                <input
                  id={`step-${i}-agent`}
                  list="agent-names"
                  value={step.agent}
                  onInput={(e) => update(i, { agent: e.currentTarget.value })}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            <Field id={`step-${i}-action`} label={`Step ${i} action`} path={`steps[${i}].action`} error={error}>
              {(describedBy, invalid) => (
                <textarea
                  id={`step-${i}-action`}
                  rows={2}
                  value={step.action}
                  onInput={(e) => update(i, { action: e.currentTarget.value })}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            <Field id={`step-${i}-context`} label={`Step ${i} sends`} path={`steps[${i}].context`} error={error}>
              {(describedBy) => (
                <select
                  id={`step-${i}-context`}
                  value={step.context ?? ''}
                  onChange={(e) => {
                    const value = e.currentTarget.value as '' | StepContext;
                    update(i, { context: value || undefined });
                  }}
                  aria-describedby={describedBy}
                >
                  {CONTEXTS.map(({ value, label }) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {steps.length > 1 && (
              <button type="button" class="secondary" onClick={() => onChange(steps.filter((_, j) => j !== i))}>
                Remove step {i}
              </button>
            )}
          </li>
        ))}
      </ol>
      <button type="button" class="secondary" onClick={() => onChange([...steps, { agent: '', action: '' }])}>
        Add step
      </button>
    </fieldset>
  );
}

/** The steps as the API takes them: `context` only where one was chosen. */
export function stepsBody(steps: StepDraft[]): StepDraft[] {
  return steps.map(({ agent, action, context }) => ({ agent, action, ...(context && { context }) }));
}
