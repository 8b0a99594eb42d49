import { RunScores } from './run-scores';
import { GuardrailVerdicts } from './guardrail-verdicts';
import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { AgentRun } from '../api/schema';
import { readSse } from '../api/sse';
import { PendingApprovals } from '../components/pending-approvals';
import { ReplayForm } from '../components/replay-form';
import { AddToDataset } from '../components/add-to-dataset';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { formatDuration, formatJson, formatSource, formatTime, formatUsd, isForgotten, shownText } from '../format';
import { TrialFacts } from '../components/trial-facts';
import { href, navigate } from '../router';
import { hasEnded, newerRun, newerStatus } from '../api/run-state';
import { RunHandoffFacts } from './run-handoffs';
import { ChildRunLink, ParentRunLine, RunTree, TotalUsageFact, WaitingOnLine } from './run-tree';
import { agentNamesByRun, useRunTree } from './use-run-tree';
import { RunMemoryFacts } from './run-memory';

interface LiveToolCall {
  id: string;
  tool: string;
  input: unknown;
  output?: unknown;
  error?: unknown;
  done: boolean;
}

/** One agent run as it happens: its stream's text, tool calls and status, then the ended run. */
export function AgentRunPage({ agentId, runId }: { agentId: string; runId: string }) {
  const [run, setRun] = useState<AgentRun | null>(null);
  const [status, setStatus] = useState<string>('queued');
  const [text, setText] = useState('');
  const [calls, setCalls] = useState<LiveToolCall[]>([]);
  const [error, setError] = useState<ProblemError | null>(null);
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    const abort = new AbortController();
    api.GET('/v1/agents/{agentId}/runs/{runId}', { params: { path: { agentId, runId } } }).then(
      (result) => setRun((old) => old ?? unwrap(result)),
      (caught) => setError(asProblem(caught)),
    );
    const url = `/v1/agents/${encodeURIComponent(agentId)}/runs/${encodeURIComponent(runId)}/stream`;
    readSse(url, abort.signal, ({ event, data }) => {
      const payload = JSON.parse(data);
      if (event === 'status') setStatus((old) => newerStatus(old, payload.status));
      else if (event === 'delta') setText((old) => old + payload.text);
      else if (event === 'tool_call') setCalls((old) => [...old, { ...payload, done: false }]);
      else if (event === 'tool_result')
        setCalls((old) => old.map((c) => (c.id === payload.id ? { ...c, ...payload, done: true } : c)));
      else if (event === 'approval_requested' || event === 'approvals_decided') {
        // The pending calls (or what is left of them) are read from the run itself.
        api.GET('/v1/agents/{agentId}/runs/{runId}', { params: { path: { agentId, runId } } }).then(
          (result) => setRun((old) => newerRun(old, unwrap(result))),
          (caught) => setError(asProblem(caught)),
        );
      } else if (event === 'end') {
        setRun(payload);
        setStatus(payload.status);
        // The stream ends with the run as it ended; what is recorded on it since (its scores) is read.
        api.GET('/v1/agents/{agentId}/runs/{runId}', { params: { path: { agentId, runId } } }).then(
          (result) => setRun(unwrap(result)),
          () => undefined,
        );
      }
    }).catch((caught) => !abort.signal.aborted && setError(asProblem(caught)));
    return () => abort.abort();
  }, [agentId, runId]);

  const ended = hasEnded(status);
  // A run in a tree (it has a parent, children, or has called an agent) is read again while any run in it goes on:
  // its stream tells nothing of the children, their approvals or its waiting for them.
  const related =
    !!run && (run.parentRunId !== null || run.children.length > 0 || calls.some((c) => c.tool.startsWith('agent:')));
  const family = useRunTree({
    agentId,
    runId,
    run,
    related,
    onRun: (fresh) => {
      setRun((old) => newerRun(old, fresh));
      setStatus((old) => newerStatus(old, fresh.status));
      setCalls((old) =>
        old.map((call) => {
          const read = fresh.toolCalls.find((c) => c.id === call.id);
          return !call.done && read?.endedAt ? { ...call, ...read, done: true } : call;
        }),
      );
    },
  });
  const agentNames = agentNamesByRun(family.tree, family.rootName);
  useEffect(() => {
    if (ended) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [ended]);

  async function cancel() {
    try {
      const result = unwrap(
        await api.POST('/v1/agents/{agentId}/runs/{runId}/cancel', { params: { path: { agentId, runId } } }),
      );
      setRun((old) => newerRun(old, result));
      setStatus((old) => newerStatus(old, result.status));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  /** The same task and context again, as a new run of the same agent. */
  async function runAgain() {
    if (!run || isForgotten(run.task)) return;
    try {
      const body = { task: run.task, context: run.context };
      const again = unwrap(await api.POST('/v1/agents/{agentId}/run', { params: { path: { agentId } }, body }));
      navigate('agents', agentId, 'runs', again.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  const toolCalls: LiveToolCall[] = ended && run ? run.toolCalls.map((c) => ({ ...c, done: true })) : calls;
  const output = ended && run?.output != null ? shownText(run.output) : text;
  return (
    <main>
      <p>
        <a href={href('agents', agentId)}>← Agent</a>
      </p>
      <div class="page-head">
        <h1>Run</h1>
        <span role="status" aria-live="polite" data-testid="run-status">
          <StatusBadge status={status} />
        </span>
        {!ended && (
          <button type="button" class="danger" onClick={cancel} disabled={run?.cancelRequested}>
            Cancel run
          </button>
        )}
        {run && !run.workflowRunId && (
          <button type="button" class="secondary" onClick={runAgain}>
            Run again
          </button>
        )}
      </div>
      {run && <ParentRunLine run={run} parentName={run.parentRunId ? agentNames[run.parentRunId] : undefined} />}
      {run && <WaitingOnLine run={run} status={status} />}
      <ProblemView error={error ?? family.error} />
      {run && !isForgotten(run.task) && <ReplayForm key={run.id} agentId={agentId} runId={runId} task={run.task} />}
      {run && ended && <AddToDataset runId={runId} target="agent" />}
      {run && (
        <dl class="facts">
          <dt>Task</dt>
          <dd class="pre">{shownText(run.task)}</dd>
          <dt>Model</dt>
          <dd>{run.model}</dd>
          {run.modelAttempts.length > 0 && (
            <>
              <dt>Models called</dt>
              <dd data-testid="run-model-attempts">
                <ol class="model-attempts">
                  {run.modelAttempts.map((attempt, i) => (
                    <li key={i}>
                      <code>{attempt.model}</code>
                      {attempt.error
                        ? ` left: ${attempt.error.code}${attempt.error.status ? ` ${attempt.error.status}` : ''}, ${attempt.error.message}`
                        : run.answeredModel === attempt.model
                          ? ' answered'
                          : ''}
                    </li>
                  ))}
                </ol>
              </dd>
            </>
          )}
          <RunHandoffFacts run={run} />
          <dt>Queued</dt>
          <dd>{formatTime(run.createdAt)}</dd>
          <dt>Duration</dt>
          <dd data-testid="run-duration">
            {formatDuration(run.startedAt ?? (status === 'running' ? run.createdAt : null), run.endedAt, now)}
          </dd>
          <dt>Usage</dt>
          <dd data-testid="run-usage">
            {run.usage ? `${run.usage.inputTokens} tokens in, ${run.usage.outputTokens} out` : '—'}
          </dd>
          <dt>Cost</dt>
          <dd data-testid="run-cost">
            {run.usage?.costUsd !== undefined
              ? formatUsd(run.usage.costUsd)
              : run.usage
                ? 'no price for this model'
                : '—'}
          </dd>
          <TotalUsageFact run={run} />
          {run.workflowRunId && (
            <>
              <dt>Workflow run</dt>
              <dd>
                step {run.stepIndex} of {run.workflowRunId}
              </dd>
            </>
          )}
          {run.replayOf && (
            <>
              <dt>Replay of</dt>
              <dd>
                <a href={href('agent-runs', run.replayOf)}>{run.replayOf}</a>
              </dd>
            </>
          )}
          {run.source && (
            <>
              <dt>Asked for by</dt>
              <dd data-testid="run-source">{formatSource(run.source)}</dd>
            </>
          )}
          <TrialFacts experimentId={run.experimentId} trial={run.trial} recordedHref={(id) => href('agent-runs', id)} />
          <RunMemoryFacts run={run} />
          <dt>History</dt>
          <dd>
            <a href={href('history', `agentrun-${runId}`)}>Event history</a>
          </dd>
        </dl>
      )}
      {run?.error && (
        <div class="problem" role="alert">
          <strong>{run.error.code}</strong> — {run.error.message}
        </div>
      )}
      {run && run.warnings.length > 0 && <p class="muted">Warnings: {run.warnings.join('; ')}</p>}
      {status === 'waiting' && run && run.pendingApprovals.length > 0 && (
        <PendingApprovals
          agentId={agentId}
          runId={runId}
          pending={run.pendingApprovals}
          agentNames={agentNames}
          onDecided={(decided) => {
            // A sub-agent's run answered: this one is read again.
            if (decided.id !== runId) return family.refresh();
            setRun((old) => newerRun(old, decided));
            setStatus((old) => newerStatus(old, decided.status));
          }}
        />
      )}
      {related && (
        <RunTree tree={family.tree} currentRunId={runId} rootName={family.rootName} handoffs={run?.handoffs} />
      )}
      <h2>Output</h2>
      <pre class="output" data-testid="run-output" tabIndex={0} role="region" aria-label="Run output">
        {output}
      </pre>
      {run?.outputObject && (
        <>
          <h2>Output object</h2>
          <pre class="output" data-testid="run-output-object" tabIndex={0} role="region" aria-label="Output object">
            {formatJson(run.outputObject)}
          </pre>
        </>
      )}
      {run && run.guardrails.length > 0 && <GuardrailVerdicts verdicts={run.guardrails} />}
      {run && run.scores.length > 0 && <RunScores scores={run.scores} />}
      <h2>Tool calls</h2>
      {toolCalls.length === 0 && <p class="muted">None.</p>}
      <ol class="tool-calls">
        {toolCalls.map((call) => (
          <li key={call.id} class="card">
            <strong>{call.tool}</strong> <ChildRunLink run={run} callId={call.id} />{' '}
            {call.done ? (
              call.error ? (
                <StatusBadge status="failed" />
              ) : (
                <StatusBadge status="succeeded" />
              )
            ) : (
              <StatusBadge status="running" />
            )}
            <h3 class="block-label">Arguments</h3>
            <pre>{formatJson(call.input)}</pre>
            {call.done && (
              <>
                <h3 class="block-label">{call.error ? 'Error' : 'Result'}</h3>
                <pre>{formatJson(call.error ?? call.output)}</pre>
              </>
            )}
          </li>
        ))}
      </ol>
    </main>
  );
}
