import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import { ProblemView } from '../components/problem-view';
import { formProblem } from '../forms/form-problem';
import { workflowBody } from '../forms/workflow-body';
import { WorkflowDraft, workflowDraft } from '../forms/workflow-draft';
import { WorkflowFields, workflowPaths } from '../forms/workflow-fields';
import { href, navigate } from '../router';
import { useAgentNames } from './steps-editor';

/** A new workflow, every field of it; the form checks what it can before sending. */
export function WorkflowCreatePage() {
  const [draft, setDraft] = useState<WorkflowDraft>(workflowDraft());
  const [error, setError] = useState<ProblemError | null>(null);
  const [busy, setBusy] = useState(false);
  const agentNames = useAgentNames();

  async function submit(event: Event) {
    event.preventDefault();
    const { body, problems } = workflowBody(draft, agentNames);
    const found = formProblem(problems);
    setError(found);
    if (found) return;
    setBusy(true);
    try {
      // A create leaves out what is not chosen (a patch sends null for it).
      const { inputSchema, outputStep, maxConcurrentRuns, concurrency, ...rest } = body;
      const created = {
        ...rest,
        ...(inputSchema && { inputSchema }),
        ...(outputStep && { outputStep }),
        ...(maxConcurrentRuns !== null && { maxConcurrentRuns }),
        ...(concurrency && { concurrency }),
      };
      const workflow = unwrap(await api.POST('/v1/workflows', { body: created }));
      navigate('workflows', workflow.id);
    } catch (caught) {
      setError(asProblem(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main>
      <p>
        <a href={href('workflows')}>← Workflows</a>
      </p>
      <h1>New workflow</h1>
      <form onSubmit={submit} noValidate>
        <WorkflowFields draft={draft} onChange={setDraft} error={error} agentNames={agentNames} idPrefix="wf" />
        <ProblemView error={error} shownPaths={workflowPaths(draft)} />
        <button type="submit" disabled={busy}>
          Create workflow
        </button>
      </form>
    </main>
  );
}
