import type { ComponentChildren } from 'preact';
import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import type { StepContext, StepDraft, StepKind } from './workflow-draft';

const KINDS: Array<{ kind: StepKind; label: string }> = [
  { kind: 'agent', label: "An agent's task" },
  { kind: 'map', label: "An agent's task per item of a list" },
  { kind: 'workflow', label: 'Another workflow' },
  { kind: 'approval', label: "A person's approval" },
  { kind: 'wait', label: 'Wait for a signal' },
  { kind: 'sleep', label: 'Sleep' },
];

const CONTEXTS: Array<{ value: '' | StepContext; label: string }> = [
  { value: '', label: 'Only the task (default)' },
  { value: 'input', label: 'The task and the run input' },
  { value: 'steps', label: "The task and the earlier steps' outputs" },
  { value: 'all', label: 'The task, the input and the earlier outputs' },
];

const TIME_LIMIT_HINTS: Record<StepKind, string> = {
  agent: 'For all its attempts together (1000 or more). Blank: none.',
  map: 'For all its items together (1000 or more). Blank: none.',
  workflow: 'For all its child runs together (1000 or more); past it the child is cancelled. Blank: none.',
  approval: 'How long it may wait for a person (1000 or more). Blank: none.',
  wait: 'How long it may wait for the signal (1000 or more), then it fails with signal_timeout. Blank: none.',
  sleep: '',
};

/** Agent steps and map steps (an agent's task once per item) both name an agent and its action. */
const hasAgent = (kind: StepKind) => kind === 'agent' || kind === 'map';

/**
 * The fields of step `i`: what it is (an agent's task, once or per item of a list, a person's approval, a wait for
 * a signal, a sleep), its place in the graph, its limits.
 */
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
        {KINDS.map(({ kind, label }) => (
          <label key={kind} class="checkbox">
            <input
              type="radio"
              name={`step-${i}-kind`}
              checked={step.kind === kind}
              onChange={() => update({ kind })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {hasAgent(step.kind) && (
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
          {text('action', 'action', {
            area: true,
            hint: step.kind === 'map' ? 'Per item: {{item}}, {{item.<field>}} and {{index}} (from 0).' : undefined,
          })}
        </>
      )}
      {step.kind === 'map' && <MapFields step={step} i={i} update={update} error={error} text={text} />}
      {step.kind === 'workflow' && (
        <>
          {text('childWorkflow', 'workflow', {
            errorPath: path('workflow'),
            placeholder: 'daily digest',
            hint: 'The name of the workflow to run as a child run; its output is this step’s.',
          })}
          {text('childInput', 'child input (JSON)', {
            area: true,
            errorPath: path('input'),
            placeholder: '{"topic": "{{input.topic}}"}',
            hint: 'Each string is a template; "{{input.items}}" alone gives the value itself. Blank: {}.',
          })}
        </>
      )}
      {step.kind === 'approval' &&
        text('approval', 'approval text', {
          area: true,
          hint: 'What the approver reads before approving or rejecting.',
        })}
      {step.kind === 'wait' && (
        <div class="row">
          {text('signal', 'signal', { errorPath: path('wait.signal'), placeholder: 'order.paid' })}
          {text('signalKey', 'signal key', {
            errorPath: path('wait.key'),
            placeholder: 'any key; e.g. {{input.orderId}}',
            hint: 'Only a signal with this key ends the wait (filled in from the input and earlier steps).',
          })}
        </div>
      )}
      {step.kind === 'sleep' && (
        <div class="row">
          {text('sleepMs', 'sleep for (ms)', { errorPath: path('sleep.ms'), numeric: true, placeholder: '86400000' })}
          {text('sleepUntil', 'sleep until', {
            errorPath: path('sleep.until'),
            placeholder: 'or a time, e.g. {{input.remindAt}}',
            hint: 'An ISO time, or a template giving one. Fill in one of the two.',
          })}
        </div>
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
          {text('repeatUntil', 'repeat until (JSON Logic)', {
            area: true,
            errorPath: path('repeat.until'),
            placeholder: 'runs once; e.g. {">=": [{"var": "outputObject.score"}, 8]}',
            hint: 'Over {output, outputObject, iteration}: it runs again, with {{previous.output}} and {{iteration}}, until this holds.',
          })}
          {step.repeatUntil.trim() &&
            text('repeatMax', 'at most (iterations)', { errorPath: path('repeat.max'), numeric: true })}
        </div>
      )}
      {(step.kind === 'agent' || step.kind === 'workflow' || step.kind === 'wait') && (
        <div class="row">
          {text('attempts', step.kind === 'wait' ? 'waits' : 'attempts', {
            errorPath: path('retry.attempts'),
            numeric: true,
            hint:
              step.kind === 'wait'
                ? '1 to 10: after a time-out it waits again, until this many waits'
                : '1 to 10, the first included',
          })}
          {Number(step.attempts) > 1 && step.kind !== 'wait' && (
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
        {step.kind !== 'sleep' &&
          text('timeoutMs', 'time limit (ms)', {
            numeric: true,
            errorPath: step.kind === 'wait' ? path('wait.timeoutMs') : path('timeoutMs'),
            hint: TIME_LIMIT_HINTS[step.kind],
          })}
        {hasAgent(step.kind) && (
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

type TextField = (
  field: keyof StepDraft,
  label: string,
  options?: { placeholder?: string; hint?: ComponentChildren; errorPath?: string; numeric?: boolean },
) => ComponentChildren;

/** A map step's list, how many of its items run at once, and what a failed item does. */
function MapFields({
  step,
  i,
  update,
  error,
  text,
}: {
  step: StepDraft;
  i: number;
  update: (change: Partial<StepDraft>) => void;
  error: ProblemError | null;
  text: TextField;
}) {
  const path = (field: string) => `steps[${i}].${field}`;
  return (
    <div class="row">
      {text('mapOver', 'list', {
        errorPath: path('map.over'),
        placeholder: 'input.people',
        hint: 'A path to a list: input.<path>, or steps.<id>.outputObject.<path> of a step it needs.',
      })}
      {text('mapConcurrency', 'items at once', { errorPath: path('map.concurrency'), numeric: true })}
      <Field
        id={`step-${i}-onItemError`}
        label={`Step ${i} when an item fails`}
        path={path('onItemError')}
        error={error}
      >
        {(describedBy) => (
          <select
            id={`step-${i}-onItemError`}
            value={step.onItemError}
            onChange={(e) => update({ onItemError: e.currentTarget.value as 'fail' | 'skip' })}
            aria-describedby={describedBy}
          >
            <option value="fail">Fail the step (default)</option>
            <option value="skip">Skip it: null in its place</option>
          </select>
        )}
      </Field>
    </div>
  );
}
