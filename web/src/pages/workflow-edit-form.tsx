import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Workflow } from '../api/schema';
import { CONFLICT_MESSAGE, isEditConflict } from '../components/conflict';
import { Field } from '../components/field';
import { ProblemView } from '../components/problem-view';
import { StepBody, StepDraft, StepsEditor, stepDrafts, stepPaths, stepsBody } from './steps-editor';
import { POLICY_PATHS, RunPolicyDraft, RunPolicyFields, policyBody, policyDraft } from './run-policy-fields';
import { INPUT_SCHEMA_PATHS, InputSchemaField, inputSchemaBody, inputSchemaText } from './input-schema-field';

/** Edits a workflow's name, input schema, steps and run policy with a merge patch sent with If-Match. */
export function WorkflowEditForm({ workflow, onSaved }: { workflow: Workflow; onSaved: (workflow: Workflow) => void }) {
  const [name, setName] = useState(workflow.name);
  const [steps, setSteps] = useState<StepDraft[]>(stepDrafts(workflow.steps as StepBody[]));
  const [policy, setPolicy] = useState<RunPolicyDraft>(policyDraft(workflow));
  const [inputSchema, setInputSchema] = useState(inputSchemaText(workflow.inputSchema));
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    try {
      const saved = unwrap(
        await api.PATCH('/v1/workflows/{workflowId}', {
          params: { path: { workflowId: workflow.id }, header: { 'If-Match': `"${workflow.version}"` } },
          // The schema is replaced whole; blank removes it (null).
          body: { name, inputSchema: inputSchemaBody(inputSchema), steps: stepsBody(steps), ...policyBody(policy) },
          headers: { 'content-type': 'application/merge-patch+json' },
        }),
      );
      setError(null);
      onSaved(saved);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form onSubmit={submit} class="card" noValidate aria-label="Edit workflow">
      <h2>Edit</h2>
      <Field id="edit-wf-name" label="Name" path="name" error={error}>
        {(describedBy, invalid) => (
          <input
            id="edit-wf-name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <InputSchemaField id="edit-wf-input-schema" text={inputSchema} onChange={setInputSchema} error={error} />
      <StepsEditor steps={steps} onChange={setSteps} error={error} />
      <RunPolicyFields policy={policy} onChange={setPolicy} error={error} />
      {isEditConflict(error) ? (
        <div class="problem" role="alert">
          <strong>Changed by someone else.</strong> {CONFLICT_MESSAGE}{' '}
          <button type="button" class="secondary" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      ) : (
        <ProblemView error={error} shownPaths={['name', ...INPUT_SCHEMA_PATHS, ...stepPaths(steps), ...POLICY_PATHS]} />
      )}
      <button type="submit">Save changes</button>
    </form>
  );
}
