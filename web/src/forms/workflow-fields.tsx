import type { ProblemError } from '../api/client';
import { Field } from '../components/field';
import { CronField } from '../pages/cron-field';
import { INPUT_SCHEMA_PATHS, InputSchemaField } from '../pages/input-schema-field';
import { POLICY_PATHS, RunPolicyFields } from '../pages/run-policy-fields';
import { StepsEditor, stepPaths } from '../pages/steps-editor';
import { StepsPreview } from './steps-preview';
import type { WorkflowDraft } from './workflow-draft';

/** The paths whose messages the workflow form shows beside a field, for the problem view to leave to them. */
export function workflowPaths(draft: WorkflowDraft): string[] {
  return [
    'name',
    'trigger.cron',
    'trigger.timezone',
    'outputStep',
    ...INPUT_SCHEMA_PATHS,
    ...stepPaths(draft.steps),
    ...POLICY_PATHS,
  ];
}

/**
 * Every field of a workflow, the same when creating and when editing: name, trigger, input schema, steps (with the
 * graph they make, drawn as they are typed), output step and run policy.
 */
export function WorkflowFields({
  draft,
  onChange,
  error,
  agentNames,
  idPrefix,
}: {
  draft: WorkflowDraft;
  onChange: (draft: WorkflowDraft) => void;
  error: ProblemError | null;
  agentNames: string[] | null;
  idPrefix: string;
}) {
  const set = (change: Partial<WorkflowDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <Field id={`${idPrefix}-name`} label="Name" path="name" error={error}>
        {(describedBy, invalid) => (
          <input
            id={`${idPrefix}-name`}
            value={draft.name}
            onInput={(e) => set({ name: e.currentTarget.value })}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <fieldset>
        <legend>Trigger</legend>
        <label class="checkbox">
          <input
            type="radio"
            name={`${idPrefix}-trigger`}
            checked={!draft.scheduled}
            onChange={() => set({ scheduled: false })}
          />{' '}
          By hand
        </label>
        <label class="checkbox">
          <input
            type="radio"
            name={`${idPrefix}-trigger`}
            checked={draft.scheduled}
            onChange={() => set({ scheduled: true })}
          />{' '}
          On a schedule
        </label>
        {draft.scheduled && (
          <CronField
            cron={draft.cron}
            timezone={draft.timezone}
            onCron={(cron) => set({ cron })}
            onTimezone={(timezone) => set({ timezone })}
            error={error}
          />
        )}
      </fieldset>
      <InputSchemaField
        id={`${idPrefix}-input-schema`}
        text={draft.inputSchema}
        onChange={(inputSchema) => set({ inputSchema })}
        error={error}
      />
      <StepsPreview steps={draft.steps} />
      <StepsEditor steps={draft.steps} onChange={(steps) => set({ steps })} error={error} agentNames={agentNames} />
      <Field
        id={`${idPrefix}-output-step`}
        label="Output step"
        path="outputStep"
        error={error}
        hint="The id of the step whose output is the run's output. Blank: the last step."
      >
        {(describedBy, invalid) => (
          <input
            id={`${idPrefix}-output-step`}
            value={draft.outputStep}
            onInput={(e) => set({ outputStep: e.currentTarget.value })}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <RunPolicyFields policy={draft} onChange={set} error={error} />
    </>
  );
}
