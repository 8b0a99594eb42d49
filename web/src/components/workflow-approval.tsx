import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { WorkflowRun } from '../api/schema';
import { parseJsonObject } from '../format';
import { Field } from './field';
import { ProblemView } from './problem-view';

/** The approval step a workflow run waits at: optional data (the step's output), a reason, Approve or Reject. */
export function WorkflowApproval(props: {
  workflowId: string;
  runId: string;
  text: string;
  onDecided: (run: WorkflowRun) => void;
}) {
  const [data, setData] = useState('');
  const [reason, setReason] = useState('');
  const [dataError, setDataError] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function decide(decision: 'approve' | 'reject') {
    setDataError(null);
    let parsed: Record<string, unknown> | undefined;
    if (decision === 'approve' && data.trim()) {
      try {
        parsed = parseJsonObject(data);
      } catch (caught) {
        return setDataError((caught as Error).message);
      }
    }
    const body = { decision, ...(reason && { reason }), ...(parsed && { data: parsed }) };
    try {
      const params = { params: { path: { workflowId: props.workflowId, runId: props.runId } } };
      props.onDecided(unwrap(await api.POST('/v1/workflows/{workflowId}/runs/{runId}/approvals', { ...params, body })));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <section class="card" aria-labelledby="workflow-approval-heading" data-testid="workflow-approval">
      <h2 id="workflow-approval-heading">Waiting for your approval</h2>
      <p class="pre">{props.text}</p>
      <ProblemView error={error} />
      <Field id="approval-data" label="Data (optional JSON object, the step's output)" localError={dataError}>
        {(describedBy, invalid) => (
          <textarea
            id="approval-data"
            rows={3}
            class="mono"
            value={data}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onInput={(e) => setData((e.target as HTMLTextAreaElement).value)}
          />
        )}
      </Field>
      <Field id="approval-reason" label="Reason (optional)">
        {(describedBy) => (
          <input
            id="approval-reason"
            value={reason}
            aria-describedby={describedBy}
            onInput={(e) => setReason((e.target as HTMLInputElement).value)}
          />
        )}
      </Field>
      <div class="page-head">
        <button type="button" onClick={() => decide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" onClick={() => decide('reject')}>
          Reject
        </button>
      </div>
    </section>
  );
}
