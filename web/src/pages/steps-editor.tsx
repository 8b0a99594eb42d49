import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ProblemError } from '../api/client';
import { StepFields } from '../forms/step-fields';
import { StepDraft, emptyStep } from '../forms/workflow-draft';

/** The paths of the step fields, for the problem view to leave to them. */
export function stepPaths(steps: StepDraft[]): string[] {
  return steps.flatMap((_, i) =>
    [
      'agent',
      'action',
      'approval',
      'context',
      'id',
      'needs',
      'when',
      'retry',
      'timeoutMs',
      'wait.signal',
      'wait.key',
      'wait.timeoutMs',
      'sleep.ms',
      'sleep.until',
    ].map((field) => `steps[${i}].${field}`),
  );
}

/** The names of the agents a step may name (active ones), offered while typing and checked before sending. */
export function useAgentNames(): string[] | null {
  const [names, setNames] = useState<string[] | null>(null);
  useEffect(() => {
    api.GET('/v1/agents', { params: { query: { limit: 200 } } }).then(
      (result) =>
        setNames(
          unwrap(result)
            .agents.filter((agent) => agent.status === 'active')
            .map((agent) => agent.name),
        ),
      () => setNames(null),
    );
  }, []);
  return names;
}

/** A workflow's steps, numbered from 0 as `{{steps.N.output}}` counts them. */
export function StepsEditor({
  steps,
  onChange,
  error,
  agentNames,
}: {
  steps: StepDraft[];
  onChange: (steps: StepDraft[]) => void;
  error: ProblemError | null;
  agentNames: string[] | null;
}) {
  const update = (index: number, change: Partial<StepDraft>) =>
    onChange(steps.map((s, i) => (i === index ? { ...s, ...change } : s)));
  return (
    <fieldset>
      <legend>Steps</legend>
      <p class="hint">
        Each step runs an agent (by name, picked from the list or typed), or waits for a person's approval. In the
        action, <code>{'{{input.topic}}'}</code> is the run's input and <code>{'{{steps.0.output}}'}</code> (or{' '}
        <code>{'{{steps.<id>.output}}'}</code>) an earlier step's output; the agent is sent the action with those filled
        in, and only that unless you choose more. A step waits for the step before it unless its needs name others (
        <code>-</code>: nothing); steps whose needs are met run side by side.
      </p>
      <datalist id="agent-names">
        {(agentNames ?? []).map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ol class="steps" start={0}>
        {steps.map((step, i) => (
          <li key={i} class="card">
            <StepFields step={step} i={i} update={(change) => update(i, change)} error={error} />
            {steps.length > 1 && (
              <button type="button" class="secondary" onClick={() => onChange(steps.filter((_, j) => j !== i))}>
                Remove step {i}
              </button>
            )}
          </li>
        ))}
      </ol>
      <button type="button" class="secondary" onClick={() => onChange([...steps, emptyStep()])}>
        Add step
      </button>
    </fieldset>
  );
}
