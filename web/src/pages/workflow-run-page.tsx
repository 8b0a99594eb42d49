import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { WorkflowRun } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { WorkflowApproval } from '../components/workflow-approval';
import { SendSignal } from '../components/send-signal';
import { StatusBadge } from '../components/status-badge';
import { formatDuration, formatJson, formatSource, formatTime } from '../format';
import { WorkflowGraph } from '../graph/workflow-graph';
import { TrialFacts } from '../components/trial-facts';
import { href, navigate } from '../router';
import { hasEnded, newerRun } from '../api/run-state';
import { AddToDataset } from '../components/add-to-dataset';
import { graphStepOf, RunStepCard } from './workflow-run-step';

/**
 * A workflow run: its steps drawn as a graph whose nodes show each step's status, attempts and duration, and under it
 * each step's card (its task, output, agent run, replay from here); refreshed until the run ends.
 */
export function WorkflowRunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const [run, setRun] = useState<WorkflowRun | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  // Said on the page, not in the form: the form goes once the step it was sent to goes on.
  const [reached, setReached] = useState<number | null>(null);
  const graphSteps = useMemo(() => run?.steps.map(graphStepOf) ?? [], [run]);
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

  /** Shows a step chosen on the graph: its card is scrolled to, focused and opened. */
  function select(stepId: string) {
    setSelected(stepId);
    const card = document.getElementById(`step-${stepId}`);
    card?.scrollIntoView({ block: 'nearest' });
    card?.focus({ preventScroll: true });
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
      {run && hasEnded(run.status) && <AddToDataset runId={runId} target="workflow" />}
      {run && (
        <>
          <dl class="facts">
            <dt>Input</dt>
            <dd>
              <pre>{formatJson(run.input)}</pre>
            </dd>
            <dt>Trigger</dt>
            <dd>
              {run.trigger.type === 'schedule'
                ? `${run.trigger.backfill ? 'backfill' : 'schedule'}, tick of ${formatTime(run.trigger.scheduledFor)}`
                : 'manual'}
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
            {run.parentRunId && (
              <>
                <dt>Started by</dt>
                <dd data-testid="parent-run">
                  step {run.parentStep} of <a href={href('workflow-runs', run.parentRunId)}>{run.parentRunId}</a>
                </dd>
              </>
            )}
            {run.source && (
              <>
                <dt>Asked for by</dt>
                <dd data-testid="run-source">{formatSource(run.source)}</dd>
              </>
            )}
            <TrialFacts
              experimentId={run.experimentId}
              trial={run.trial}
              recordedHref={(id) => href('workflows', workflowId, 'runs', id)}
            />
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
          {run.status === 'waiting' &&
            run.steps.map(
              (step) =>
                step.status === 'waiting' &&
                step.awaiting &&
                !step.awaiting.signalId && (
                  <SendSignal
                    key={step.index}
                    signal={step.awaiting.signal}
                    signalKey={step.awaiting.key}
                    onSent={setReached}
                  />
                ),
            )}
          {reached !== null && (
            <p role="status" data-testid="signal-reached">
              Sent: it reached {reached} waiting {reached === 1 ? 'run' : 'runs'}.
            </p>
          )}
          <h2>Steps</h2>
          <WorkflowGraph steps={graphSteps} label="The run's steps as a graph" onSelect={select} />
          <ol class="timeline" data-testid="timeline">
            {run.steps.map((step) => (
              <RunStepCard
                key={step.index}
                step={step}
                ended={hasEnded(run.status)}
                selected={selected === step.id}
                onReplay={replay}
              />
            ))}
          </ol>
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
