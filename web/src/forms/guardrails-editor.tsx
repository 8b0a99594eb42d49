import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import { fieldMessages } from '../components/problem-view';
import {
  GUARDRAIL_ACTIONS,
  GUARDRAIL_STAGES,
  GUARDRAIL_TYPES,
  GuardrailAction,
  GuardrailCheckDraft,
  GuardrailStage,
  GuardrailType,
  GuardrailsDraft,
  PII_KINDS,
  STAGE_LABELS,
  TYPE_LABELS,
  newCheck,
} from './guardrails-draft';
import type { ActiveAgents } from './use-active-agents';

/** The fields of a check that show their own messages; any other message of the check shows below it. */
const CHECK_FIELDS = ['type', 'action', 'pattern', 'flags', 'kinds', 'chars', 'agent'];

const within = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);

/** The judge picker: the active agents, and the name the check holds when no listed agent has it. */
function JudgeField({ id, path, check, error, agents, onChange }: CheckFieldProps) {
  const names = agents.agents.map((agent) => agent.name);
  return (
    <Field id={id('agent')} label="Judge agent" path={`${path}.agent`} error={error}>
      {(describedBy, invalid) => (
        <select
          id={id('agent')}
          value={check.agent}
          onChange={(e) => onChange({ agent: e.currentTarget.value })}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        >
          <option value="">{agents.loading ? 'Loading agents…' : 'Choose an agent'}</option>
          {check.agent && !names.includes(check.agent) && (
            <option value={check.agent}>{check.agent} (not among the active agents listed)</option>
          )}
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

interface CheckFieldProps {
  id: (name: string) => string;
  path: string;
  check: GuardrailCheckDraft;
  error: ProblemError | null;
  agents: ActiveAgents;
  onChange: (change: Partial<GuardrailCheckDraft>) => void;
}

/** What a check of its type needs: a pattern and flags, kinds of personal data, a length, or a judge. */
function TypeFields(props: CheckFieldProps) {
  const { id, path, check, error, onChange } = props;
  const text = (name: 'pattern' | 'flags' | 'chars') => (e: { currentTarget: { value: string } }) =>
    onChange({ [name]: e.currentTarget.value });
  switch (check.type) {
    case 'pattern':
      return (
        <>
          <Field id={id('pattern')} label="Pattern" path={`${path}.pattern`} error={error} hint="RE2 syntax">
            {(describedBy, invalid) => (
              <input
                id={id('pattern')}
                class="mono"
                value={check.pattern}
                onInput={text('pattern')}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
          <Field id={id('flags')} label="Flags" path={`${path}.flags`} error={error} hint="any of i, m, s">
            {(describedBy, invalid) => (
              <input
                id={id('flags')}
                value={check.flags}
                onInput={text('flags')}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
        </>
      );
    case 'pii': {
      const messages = fieldMessages(error, `${path}.kinds`);
      const toggle = (kind: (typeof PII_KINDS)[number], on: boolean) =>
        onChange({
          kinds: on ? [...check.kinds.filter((k) => k !== kind), kind] : check.kinds.filter((k) => k !== kind),
        });
      return (
        <fieldset class="inline-choice" aria-describedby={messages.length ? id('kinds-error') : undefined}>
          <legend>Kinds</legend>
          {PII_KINDS.map((kind) => (
            <label class="checkbox" key={kind}>
              <input
                type="checkbox"
                checked={check.kinds.includes(kind)}
                onChange={(e) => toggle(kind, e.currentTarget.checked)}
              />{' '}
              {kind}
            </label>
          ))}
          {messages.length > 0 && (
            <div class="field-error" id={id('kinds-error')}>
              {messages.join('; ')}
            </div>
          )}
        </fieldset>
      );
    }
    case 'max_length':
      return (
        <Field id={id('chars')} label="Most characters" path={`${path}.chars`} error={error}>
          {(describedBy, invalid) => (
            <input
              id={id('chars')}
              type="number"
              min={1}
              value={check.chars}
              onInput={text('chars')}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
      );
    case 'agent':
      return <JudgeField {...props} />;
  }
}

/** One check: its type, its action, its type's fields and a button to remove it. */
function CheckFields({ number, onRemove, ...props }: CheckFieldProps & { number: number; onRemove: () => void }) {
  const { id, path, check, error, onChange } = props;
  const others = (error?.problem.errors ?? [])
    .filter((e) => within(e.path, path) && !CHECK_FIELDS.some((field) => within(e.path, `${path}.${field}`)))
    .map((e) => e.message);
  return (
    <fieldset class="guardrail-check">
      <legend>Check {number}</legend>
      <div class="row">
        <Field id={id('type')} label="Type" path={`${path}.type`} error={error}>
          {(describedBy, invalid) => (
            <select
              id={id('type')}
              value={check.type}
              onChange={(e) => onChange({ type: e.currentTarget.value as GuardrailType })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            >
              {GUARDRAIL_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={id('action')} label="Action" path={`${path}.action`} error={error}>
          {(describedBy, invalid) => (
            <select
              id={id('action')}
              value={check.action}
              onChange={(e) => onChange({ action: e.currentTarget.value as GuardrailAction })}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            >
              {GUARDRAIL_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div class="row">
        <TypeFields {...props} />
      </div>
      {others.length > 0 && <div class="field-error">{others.join('; ')}</div>}
      <button type="button" class="secondary small" onClick={onRemove}>
        Remove check {number}
      </button>
    </fieldset>
  );
}

/**
 * The agent's guardrails, check by check, under the stage each runs at: on the task before any model call, on the
 * answer, and on each tool result before the model sees it. A check is a pattern, personal data, a length limit, or
 * a judge (another active agent asked whether the text may go on); each blocks, redacts or warns.
 */
export function GuardrailsEditor({
  draft,
  onChange,
  error,
  agents,
  idPrefix,
}: {
  draft: GuardrailsDraft;
  onChange: (draft: GuardrailsDraft) => void;
  error: ProblemError | null;
  agents: ActiveAgents;
  idPrefix: string;
}) {
  const setStage = (stage: GuardrailStage, checks: GuardrailCheckDraft[]) => onChange({ ...draft, [stage]: checks });
  const rowPaths = GUARDRAIL_STAGES.flatMap((stage) => draft[stage].map((_, i) => `guardrails.${stage}[${i}]`));
  const general = (error?.problem.errors ?? [])
    .filter((e) => within(e.path, 'guardrails') && !rowPaths.some((row) => within(e.path, row)))
    .map((e) => `${e.path === 'guardrails' ? '' : `${e.path.slice('guardrails.'.length)}: `}${e.message}`);
  return (
    <fieldset>
      <legend>Guardrails</legend>
      <p class="hint">
        Checks on the task, the answer and each tool result. Each blocks (the run fails, or the tool result is
        withheld), redacts what it found, or warns. A judge is another agent, asked whether the text may go on.
      </p>
      {general.length > 0 && <div class="field-error">{general.join('; ')}</div>}
      {GUARDRAIL_STAGES.map((stage) => (
        <fieldset class="tool-group" key={stage}>
          <legend>{STAGE_LABELS[stage]}</legend>
          {draft[stage].length === 0 && <p class="muted">No checks.</p>}
          {draft[stage].map((check, i) => (
            <CheckFields
              key={i}
              number={i + 1}
              id={(name) => `${idPrefix}-guardrail-${stage}-${i}-${name}`}
              path={`guardrails.${stage}[${i}]`}
              check={check}
              error={error}
              agents={agents}
              onChange={(change) =>
                setStage(
                  stage,
                  draft[stage].map((old, at) => (at === i ? { ...old, ...change } : old)),
                )
              }
              onRemove={() =>
                setStage(
                  stage,
                  draft[stage].filter((_, at) => at !== i),
                )
              }
            />
          ))}
          <button type="button" class="secondary small" onClick={() => setStage(stage, [...draft[stage], newCheck()])}>
            Add a check {STAGE_LABELS[stage].toLowerCase()}
          </button>
        </fieldset>
      ))}
    </fieldset>
  );
}
