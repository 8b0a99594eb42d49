import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { WorkflowRun } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { WorkflowApproval } from '../components/workflow-approval';
import { StatusBadge } from '../components/status-badge';
import { formatDuration, formatJson, formatTime } from '../format';
import { href, navigate } from '../router';
import { hasEnded, newerRun } from '../api/run-state';

type RunStep = WorkflowRun['steps'][number];

/** Why a skipped step did not run, in words. */
const SKIP_REASONS: Record<NonNullable<RunStep['skipReason']>, string> = {
  condition_false: 'its condition (when) was false',
  needs_skipped: 'every step it needs was skipped',
};

/** The steps in columns by depth: a step stands one column right of the deepest step it needs. */
export function columnsByDepth(steps: RunStep[]): RunStep[][] {
  const depth = new Map<string, number>();
  const depthOf = (step: RunStep, seen: Set<string>): number => {
    const known = depth.get(step.id);
    if (known !== undefined) return known;
    if (seen.has(step.id)) return 0;
    seen.add(step.id);
    const needs = step.needs.map((id) => steps.find((s) => s.id === id)).filter((s): s is RunStep => !!s);
    const d = needs.length ? 1 + Math.max(...needs.map((need) => depthOf(need, seen))) : 0;
    depth.set(step.id, d);
    return d;
  };
  const columns: RunStep[][] = [];
  for (const step of steps) (columns[depthOf(step, new Set())] ??= []).push(step);
  return columns.filter(Boolean);
}

/** A workflow run's steps as a timeline, each linking to the agent run that did it; refreshed until it ends. */
export function WorkflowRunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const [run, setRun] = useState<WorkflowRun | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const params = { params: { path: { workflowId, runId } } };

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const refresh = async () => {
      try {
        const latest = unwrap(await api.GET('/v1/workflows/{workflowId}/runs/{runId}', params));
        if (stopped) return;
        setRun((old) => newerRun(old, latest));
        if (!hasEnded(latest.status)) timer = setTimeout(refresh, 500);
      } catch (caught) {
        if (!stopped) setError(asProblem(caught));
      }
    };
    void refresh();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [workflowId, runId]);

  async function cancel() {
    try {
      const cancelled = unwrap(await api.POST('/v1/workflows/{workflowId}/runs/{runId}/cancel', params));
      setRun((old) => newerRun(old, cancelled));
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  /** A new run that reuses the outputs of the steps `fromStep` does not lead to, and runs the rest again. */
  async function replay(fromStep: string) {
    try {
      const replayed = unwrap(
        await api.POST('/v1/workflows/{workflowId}/runs/{runId}/replay', { ...params, body: { fromStep } }),
      );
      navigate('workflows', workflowId, 'runs', replayed.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  /** The same input again, as a new run of the workflow (its steps as they are now). */
  async function runAgain() {
    if (!run) return;
    try {
      const again = unwrap(
        await api.POST('/v1/workflows/{workflowId}/trigger', {
          params: { path: { workflowId } },
          body: { input: run.input },
        }),
      );
      navigate('workflows', workflowId, 'runs', again.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <main>
      <p>
        <a href={href('workflows', workflowId)}>← Workflow</a>
      </p>
      <div class="page-head">
        <h1>Workflow run</h1>
        {run && (
          <span role="status" aria-live="polite" data-testid="workflow-run-status">
            <StatusBadge status={run.status} />
          </span>
        )}
        {run && !hasEnded(run.status) && (
          <button type="button" class="danger" onClick={cancel}>
            Cancel run
          </button>
        )}
        {run && (
          <button type="button" class="secondary" onClick={runAgain}>
            Run again
          </button>
        )}
        {run && hasEnded(run.status) && run.steps.length > 0 && (
          <button
            type="button"
            class="secondary"
            onClick={() => replay((run.steps.find((step) => step.status === 'failed') ?? run.steps[0]).id)}
          >
            Replay
          </button>
        )}
      </div>
      <ProblemView error={error} />
      {run && (
        <>
          <dl class="facts">
            <dt>Input</dt>
            <dd>
              <pre>{formatJson(run.input)}</pre>
            </dd>
            <dt>Trigger</dt>
            <dd>
              {run.trigger.type === 'schedule' ? `schedule, tick of ${formatTime(run.trigger.scheduledFor)}` : 'manual'}
            </dd>
            {run.replayOf && (
              <>
                <dt>Replay of</dt>
                <dd>
                  <a href={href('workflows', workflowId, 'runs', run.replayOf.runId)}>{run.replayOf.runId}</a> from step{' '}
                  {run.replayOf.fromStep}
                </dd>
              </>
            )}
            <dt>Version</dt>
            <dd>{run.workflowVersion ?? '—'}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(run.startedAt, run.endedAt)}</dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `workflowrun-${run.id}`)}>Event history</a>
            </dd>
          </dl>
          {run.error && (
            <div class="problem" role="alert">
              <strong>{run.error.code}</strong> — {run.error.message}
            </div>
          )}
          {run.status === 'waiting' &&
            run.steps.map(
              (step) =>
                step.status === 'waiting' &&
                step.approval !== undefined && (
                  <WorkflowApproval
                    key={step.index}
                    workflowId={workflowId}
                    runId={runId}
                    text={step.approval}
                    onDecided={(decided) => setRun((old) => newerRun(old, decided))}
                  />
                ),
            )}
          <h2>Steps</h2>
          <div class="step-columns" data-testid="timeline">
            {columnsByDepth(run.steps).map((column, depth) => (
              <ol class="timeline" aria-label={`Depth ${depth}`} key={depth}>
                {column.map((step) => (
                  <li key={step.index} class={`timeline-step step-${step.status}`} data-step-id={step.id}>
                    <div class="page-head">
                      <strong>
                        Step {step.id === String(step.index) ? step.index : `${step.index} “${step.id}”`}:{' '}
                        {step.agent ?? 'Approval'}
                      </strong>
                      <StatusBadge status={step.status} />
                      {step.reused && <span class="muted">reused</span>}
                      <span class="muted">{formatDuration(step.startedAt, step.endedAt)}</span>
                      {step.agentRunId && <a href={href('agent-runs', step.agentRunId)}>agent run</a>}
                    </div>
                    {step.needs.length > 0 && <p class="muted">needs {step.needs.join(', ')}</p>}
                    {step.skipReason && (
                      <p class="muted" data-testid="skip-reason">
                        Skipped: {SKIP_REASONS[step.skipReason]}
                      </p>
                    )}
                    {step.missing && (
                      <p class="field-error" data-testid="missing-paths">
                        Led nowhere, left empty in the task:{' '}
                        <code>{step.missing.map((path) => `{{${path}}}`).join(', ')}</code>
                      </p>
                    )}
                    {(step.attempts?.length ?? 0) > 1 && (
                      <p class="muted">
                        {step.attempts!.length} attempts:{' '}
                        {step.attempts!.map((attempt) => attempt.error?.code ?? attempt.status).join(', ')}
                      </p>
                    )}
                    {hasEnded(run.status) && (
                      <button type="button" class="secondary" onClick={() => replay(step.id)}>
                        Replay from here<span class="visually-hidden"> (step {step.id})</span>
                      </button>
                    )}
                    {step.task !== null ? (
                      <details class="sent-task">
                        <summary>Task sent</summary>
                        <pre>{step.task}</pre>
                      </details>
                    ) : (
                      <p class="muted">{step.action ?? step.approval}</p>
                    )}
                    {(step.outputObject || step.output) && (
                      <>
                        <h3 class="block-label">Output of step {step.id}</h3>
                        <pre class="output">{step.outputObject ? formatJson(step.outputObject) : step.output}</pre>
                      </>
                    )}
                    {step.error && (
                      <p class="field-error">
                        {step.error.code}: {step.error.message}
                      </p>
                    )}
                  </li>
                ))}
              </ol>
            ))}
          </div>
          {run.output && (
            <>
              <h2>Output</h2>
              <pre class="output">{run.output}</pre>
            </>
          )}
        </>
      )}
    </main>
  );
}
