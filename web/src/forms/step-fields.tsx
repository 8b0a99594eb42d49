import type { ComponentChildren } from 'preact';
import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import type { StepContext, StepDraft } from './workflow-draft';

const CONTEXTS: Array<{ value: '' | StepContext; label: string }> = [
  { value: '', label: 'Only the task (default)' },
  { value: 'input', label: 'The task and the run input' },
  { value: 'steps', label: "The task and the earlier steps' outputs" },
  { value: 'all', label: 'The task, the input and the earlier outputs' },
];

/** The fields of step `i`: what it is (an agent's task or a person's approval), its place in the graph, its limits. */
export function StepFields({
  step,
  i,
  update,
  error,
}: {
  step: StepDraft;
  i: number;
  update: (change: Partial<StepDraft>) => void;
  error: ProblemError | null;
}) {
  const name = `Step ${i}`;
  const path = (field: string) => `steps[${i}].${field}`;
  /** A text input (or area) for one field of the step, labelled "Step i <label>". */
  const text = (
    field: keyof StepDraft,
    label: string,
    options: {
      area?: boolean;
      placeholder?: string;
      hint?: ComponentChildren;
      errorPath?: string;
      numeric?: boolean;
    } = {},
  ) => {
    const id = `step-${i}-${field}`;
    return (
      <Field
        id={id}
        label={`${name} ${label}`}
        path={options.errorPath ?? path(field)}
        error={error}
        hint={options.hint}
      >
        {(describedBy, invalid) => {
          const props = {
            id,
            value: step[field] as string,
            placeholder: options.placeholder,
            onInput: (e: { currentTarget: { value: string } }) => update({ [field]: e.currentTarget.value }),
            'aria-describedby': describedBy,
            'aria-invalid': invalid,
          };
          return options.area ? (
            <textarea rows={2} {...props} />
          ) : (
            <input inputMode={options.numeric ? 'numeric' : undefined} {...props} />
          );
        }}
      </Field>
    );
  };

  return (
    <>
      <fieldset class="inline-choice">
        <legend>{name} kind</legend>
        <label class="checkbox">
          <input
            type="radio"
            name={`step-${i}-kind`}
            checked={step.kind === 'agent'}
            onChange={() => update({ kind: 'agent' })}
          />{' '}
          An agent's task
        </label>
        <label class="checkbox">
          <input
            type="radio"
            name={`step-${i}-kind`}
            checked={step.kind === 'approval'}
            onChange={() => update({ kind: 'approval' })}
          />{' '}
          A person's approval
        </label>
      </fieldset>
      {step.kind === 'agent' ? (
        <>
          <Field id={`step-${i}-agent`} label={`${name} agent`} path={path('agent')} error={error}>
            {(describedBy, invalid) => (
              <input
                id={`step-${i}-agent`}
                list="agent-names"
                value={step.agent}
                onInput={(e) => update({ agent: e.currentTarget.value })}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
          {text('action', 'action', { area: true })}
        </>
      ) : (
        text('approval', 'approval text', {
          area: true,
          hint: 'What the approver reads before approving or rejecting.',
        })
      )}
      <div class="row">
        {text('id', 'id', { placeholder: String(i) })}
        {text('needs', 'needs', { placeholder: i === 0 ? 'nothing' : `the step before (${i - 1})` })}
      </div>
      {text('when', 'runs when (JSON Logic)', {
        area: true,
        placeholder: 'always; e.g. {"==": [{"var": "input.kind"}, "news"]}',
      })}
      {step.kind === 'agent' && (
        <div class="row">
          {text('attempts', 'attempts', {
            errorPath: path('retry.attempts'),
            numeric: true,
            hint: '1 to 10, the first included',
          })}
          {Number(step.attempts) > 1 && (
            <>
              {text('backoffMs', 'wait before a retry (ms)', { errorPath: path('retry.backoffMs'), numeric: true })}
              {text('maxBackoffMs', 'longest wait (ms)', {
                errorPath: path('retry.maxBackoffMs'),
                numeric: true,
                hint: 'Each wait doubles, up to this. Blank: no cap.',
              })}
            </>
          )}
        </div>
      )}
      <div class="row">
        {text('timeoutMs', 'time limit (ms)', {
          numeric: true,
          hint:
            step.kind === 'agent'
              ? 'For all its attempts together (1000 or more). Blank: none.'
              : 'How long it may wait for a person (1000 or more). Blank: none.',
        })}
        {step.kind === 'agent' && (
          <Field id={`step-${i}-context`} label={`${name} sends`} path={path('context')} error={error}>
            {(describedBy) => (
              <select
                id={`step-${i}-context`}
                value={step.context}
                onChange={(e) => update({ context: e.currentTarget.value as '' | StepContext })}
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
        )}
      </div>
    </>
  );
}
