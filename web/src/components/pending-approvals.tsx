import { useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { AgentRun, PendingApproval } from '../api/schema';
import { formatJson, parseJsonObject } from '../format';
import { href } from '../router';
import { Field } from './field';
import { ProblemView } from './problem-view';

/**
 * The tool calls a waiting run asks a person about: arguments to edit, a reason, Approve or Reject. A call of one of
 * its descendants (a sub-agent's run) says whose it is, named by `agentNames` (by run id), and is decided through
 * that run; `onDecided` gets the run that answered, which is then that one.
 */
export function PendingApprovals(props: {
  agentId: string;
  runId: string;
  pending: PendingApproval[];
  agentNames?: Record<string, string>;
  onDecided: (run: AgentRun) => void;
}) {
  return (
    <section aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Waiting for your approval</h2>
      <ol class="tool-calls">
        {props.pending.map((call) => (
          <PendingCall key={`${call.runId}/${call.toolCallId}`} call={call} {...props} />
        ))}
      </ol>
    </section>
  );
}

function PendingCall({
  agentId: pageAgentId,
  runId: pageRunId,
  call,
  agentNames,
  onDecided,
}: {
  agentId: string;
  runId: string;
  call: PendingApproval;
  agentNames?: Record<string, string>;
  onDecided: (run: AgentRun) => void;
}) {
  // The run whose call this is: the page's, or a descendant's, whose own route decides it.
  const runId = call.runId ?? pageRunId;
  const agentId = call.agentId ?? pageAgentId;
  const descendant = runId !== pageRunId;
  const original = formatJson(call.args);
  const [args, setArgs] = useState(original);
  const [reason, setReason] = useState('');
  const [argsError, setArgsError] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const id = descendant ? `approval-${runId}-${call.toolCallId}` : `approval-${call.toolCallId}`;

  async function decide(decision: 'approve' | 'reject') {
    setArgsError(null);
    let edited: Record<string, unknown> | undefined;
    if (decision === 'approve' && args !== original) {
      try {
        edited = parseJsonObject(args);
      } catch (caught) {
        return setArgsError((caught as Error).message);
      }
    }
    const body = {
      decisions: [
        {
          toolCallId: call.toolCallId,
          decision,
          ...(reason && { reason }),
          ...(edited && { args: edited }),
        },
      ],
    };
    try {
      const params = { params: { path: { agentId, runId } } };
      onDecided(unwrap(await api.POST('/v1/agents/{agentId}/runs/{runId}/approvals', { ...params, body })));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <li class="card" data-testid="pending-approval">
      <strong>{call.tool}</strong>
      {descendant && (
        <p class="muted" data-testid="approval-run">
          A call of the sub-agent run of {agentNames?.[runId] ?? 'another agent'}:{' '}
          <a href={href('agents', agentId, 'runs', runId)}>{runId}</a>
        </p>
      )}
      <ProblemView error={error} />
      <Field id={`${id}-args`} label={`Arguments for ${call.tool}`} localError={argsError}>
        {(describedBy, invalid) => (
          <textarea
            id={`${id}-args`}
            rows={4}
            class="mono"
            value={args}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            onInput={(e) => setArgs((e.target as HTMLTextAreaElement).value)}
          />
        )}
      </Field>
      <Field id={`${id}-reason`} label="Reason (optional)">
        {(describedBy) => (
          <input
            id={`${id}-reason`}
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
    </li>
  );
}
