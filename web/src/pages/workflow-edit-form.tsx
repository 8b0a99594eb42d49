import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Workflow } from '../api/schema';
import { CONFLICT_MESSAGE, isEditConflict } from '../components/conflict';
import { ProblemView } from '../components/problem-view';
import { formProblem } from '../forms/form-problem';
import { workflowBody } from '../forms/workflow-body';
import { WorkflowDraft, workflowDraft } from '../forms/workflow-draft';
import { WorkflowFields, workflowPaths } from '../forms/workflow-fields';
import { useAgentNames } from './steps-editor';

/**
 * Edits every field of a workflow, with the create form's fields, as a merge patch sent with If-Match: what is
 * blank is sent as null, which puts the default back.
 */
export function WorkflowEditForm({ workflow, onSaved }: { workflow: Workflow; onSaved: (workflow: Workflow) => void }) {
  const [draft, setDraft] = useState<WorkflowDraft>(workflowDraft(workflow));
  const [error, setError] = useState<ProblemError | null>(null);
  const agentNames = useAgentNames();

  async function submit(event: Event) {
    event.preventDefault();
    const { body, problems } = workflowBody(draft, agentNames);
    const found = formProblem(problems);
    setError(found);
    if (found) return;
    try {
      const saved = unwrap(
        await api.PATCH('/v1/workflows/{workflowId}', {
          params: { path: { workflowId: workflow.id }, header: { 'If-Match': `"${workflow.version}"` } },
          body,
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
      <WorkflowFields draft={draft} onChange={setDraft} error={error} agentNames={agentNames} idPrefix="edit-wf" />
      {isEditConflict(error) ? (
        <div class="problem" role="alert">
          <strong>Changed by someone else.</strong> {CONFLICT_MESSAGE}{' '}
          <button type="button" class="secondary" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      ) : (
        <ProblemView error={error} shownPaths={workflowPaths(draft)} />
      )}
      <button type="submit">Save changes</button>
    </form>
  );
}
