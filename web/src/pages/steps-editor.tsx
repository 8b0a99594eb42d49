import { useEffect, useState } from 'preact/hooks';
import { api, unwrap, type ProblemError } from '../api/client';
import { Field } from '../components/field';

export type StepContext = 'input' | 'steps' | 'all';

export interface StepRetryDraft {
  attempts: number;
  backoffMs: number;
  maxBackoffMs?: number;
}

export interface StepDraft {
  agent: string;
  action: string;
  context?: StepContext;
  /** Steps as a graph: an id, the ids it needs (absent: the step before), a JSON Logic condition, retries. */
  id?: string;
  needs?: string[];
  /** The condition as typed (JSON); sent parsed, or as typed when it is not JSON, for the API to name the field. */
  whenText?: string;
  retry?: StepRetryDraft;
  timeoutMs?: number;
}

const CONTEXTS: Array<{ value: '' | StepContext; label: string }> = [
  { value: '', label: 'Only the task (default)' },
  { value: 'input', label: 'The task and the run input' },
  { value: 'steps', label: "The task and the earlier steps' outputs" },
  { value: 'all', label: 'The task, the input and the earlier outputs' },
];

/** The paths of the step fields, for the problem view to leave to them. */
export function stepPaths(steps: StepDraft[]): string[] {
  return steps.flatMap((_, i) =>
    ['agent', 'action', 'context', 'id', 'needs', 'when', 'retry.attempts', 'retry.backoffMs'].map(
      (field) => `steps[${i}].${field}`,
    ),
  );
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
        <code>{'{{input.topic}}'}</code> is the run's input and <code>{'{{steps.0.output}}'}</code> (or{' '}
        <code>{'{{steps.<id>.output}}'}</code>) an earlier step's output; the agent is sent the action with those filled
        in, and only that unless you choose more. A step waits for the step before it unless its needs name others (
        <code>-</code>: nothing); steps whose needs are met run side by side.
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
            <div class="row">
              <Field id={`step-${i}-id`} label={`Step ${i} id`} path={`steps[${i}].id`} error={error}>
                {(describedBy, invalid) => (
                  <input
                    id={`step-${i}-id`}
                    placeholder={String(i)}
                    value={step.id ?? ''}
                    onInput={(e) => update(i, { id: e.currentTarget.value || undefined })}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  />
                )}
              </Field>
              <Field id={`step-${i}-needs`} label={`Step ${i} needs`} path={`steps[${i}].needs`} error={error}>
                {(describedBy, invalid) => (
                  <input
                    id={`step-${i}-needs`}
                    placeholder={i === 0 ? 'nothing' : `the step before (${i - 1})`}
                    value={step.needs?.join(', ') ?? ''}
                    onInput={(e) => {
                      const text = e.currentTarget.value;
                      const needs =
                        text.trim() === '-'
                          ? []
                          : text
                              .split(',')
                              .map((id) => id.trim())
                              .filter(Boolean);
                      update(i, { needs: text.trim() === '' ? undefined : needs });
                    }}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  />
                )}
              </Field>
            </div>
            <Field
              id={`step-${i}-when`}
              label={`Step ${i} runs when (JSON Logic)`}
              path={`steps[${i}].when`}
              error={error}
            >
              {(describedBy, invalid) => (
                <textarea
                  id={`step-${i}-when`}
                  rows={1}
                  placeholder='always; e.g. {"==": [{"var": "input.kind"}, "news"]}'
                  value={step.whenText ?? ''}
                  onInput={(e) => update(i, { whenText: e.currentTarget.value || undefined })}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            <div class="row">
              <Field
                id={`step-${i}-attempts`}
                label={`Step ${i} attempts`}
                path={`steps[${i}].retry.attempts`}
                error={error}
              >
                {(describedBy, invalid) => (
                  <input
                    id={`step-${i}-attempts`}
                    type="number"
                    min={1}
                    max={10}
                    value={step.retry?.attempts ?? 1}
                    onInput={(e) => {
                      const attempts = Number(e.currentTarget.value) || 1;
                      update(i, {
                        retry: attempts > 1 ? { backoffMs: 1000, ...step.retry, attempts } : undefined,
                      });
                    }}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                  />
                )}
              </Field>
              {step.retry && (
                <Field
                  id={`step-${i}-backoff`}
                  label={`Step ${i} wait before a retry (ms)`}
                  path={`steps[${i}].retry.backoffMs`}
                  error={error}
                >
                  {(describedBy, invalid) => (
                    <input
                      id={`step-${i}-backoff`}
                      type="number"
                      min={0}
                      value={step.retry?.backoffMs ?? 0}
                      onInput={(e) =>
                        update(i, { retry: { ...step.retry!, backoffMs: Number(e.currentTarget.value) || 0 } })
                      }
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                    />
                  )}
                </Field>
              )}
            </div>
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

/** A step as the API takes it: the optional fields only where they were chosen. */
export interface StepBody {
  agent: string;
  action: string;
  context?: StepContext;
  id?: string;
  needs?: string[];
  when?: Record<string, unknown> | boolean;
  retry?: StepRetryDraft;
  timeoutMs?: number;
}

/** The steps as the API takes them: the optional fields only where they were chosen. */
export function stepsBody(steps: StepDraft[]): StepBody[] {
  return steps.map(({ agent, action, context, id, needs, whenText, retry, timeoutMs }) => ({
    agent,
    action,
    ...(context && { context }),
    ...(id && { id }),
    ...(needs && { needs }),
    ...(whenText?.trim() && { when: parseWhen(whenText) }),
    ...(retry && { retry }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  }));
}

/** Text that is not JSON goes as it is (typed loosely): the API answers with a problem naming the field. */
function parseWhen(text: string): Record<string, unknown> | boolean {
  try {
    return JSON.parse(text) as Record<string, unknown> | boolean;
  } catch {
    return text as unknown as Record<string, unknown>;
  }
}

/** The drafts of a workflow's steps as the API gives them. */
export function stepDrafts(steps: StepBody[]): StepDraft[] {
  return steps.map(({ when, ...step }) => ({
    ...(step as StepDraft),
    ...(when !== undefined && { whenText: JSON.stringify(when) }),
  }));
}
