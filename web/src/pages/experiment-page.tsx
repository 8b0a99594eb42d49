import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { Experiment, ExperimentResult } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href } from '../router';
import { passedText } from './experiments-page';
import { CompareWith } from './compare-with';

/** An experiment: its plan, its progress as it runs, each scorer's mean against its threshold, and each item's result. */
export function ExperimentPage({ experimentId }: { experimentId: string }) {
  const [experiment, setExperiment] = useState<Experiment | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      try {
        const latest = unwrap(await api.GET('/v1/experiments/{experimentId}', { params: { path: { experimentId } } }));
        setExperiment(latest);
        if (latest.status !== 'succeeded') timer = setTimeout(refresh, 1000);
      } catch (caught) {
        setError(asProblem(caught));
      }
    };
    void refresh();
    return () => clearTimeout(timer);
  }, [experimentId]);

  const results = usePagedList<ExperimentResult>(
    async (cursor) => {
      const params = { path: { experimentId }, query: { limit: 50, cursor } };
      const page = unwrap(await api.GET('/v1/experiments/{experimentId}/results', { params }));
      return { items: page.results, nextCursor: page.nextCursor };
    },
    `${experimentId} ${experiment?.progress.scored ?? 0}`,
  );

  const summary = experiment?.summary;
  return (
    <main>
      <p>
        <a href={href('experiments')}>← Experiments</a>
      </p>
      <div class="page-head">
        <h1>Experiment</h1>
        {experiment && (
          <span role="status" data-testid="experiment-status">
            <StatusBadge status={experiment.status} />
          </span>
        )}
      </div>
      <ProblemView error={error} />
      {experiment && summary && (
        <>
          <dl class="facts">
            <TargetFacts target={experiment.target} />
            {experiment.target.overrides && (
              <>
                <dt>Overrides</dt>
                <dd>
                  <pre class="mono" data-testid="experiment-overrides">
                    {JSON.stringify(experiment.target.overrides, null, 2)}
                  </pre>
                </dd>
              </>
            )}
            <dt>Tools</dt>
            <dd data-testid="experiment-mode">
              {experiment.mode === 'recorded'
                ? `recorded results given back: ${summary.recorded?.hits ?? 0} calls replayed, ${summary.recorded?.misses ?? 0} ran (no recorded call matched)`
                : 'called live'}
            </dd>
            <dt>Dataset</dt>
            <dd>
              <a href={href('datasets', experiment.dataset.id)}>{experiment.dataset.name}</a>, version{' '}
              {experiment.dataset.version}
            </dd>
            <dt>Progress</dt>
            <dd data-testid="experiment-progress">
              {experiment.progress.scored} of {experiment.progress.total} scored ({experiment.progress.started} started,{' '}
              {experiment.concurrency} at once)
            </dd>
            <dt>Passed</dt>
            <dd data-testid="experiment-passed">{passedText(experiment.passed)}</dd>
            <dt>Runs</dt>
            <dd>
              {summary.items.succeeded} succeeded, {summary.items.failed} failed, {summary.modelCalls} model calls
            </dd>
            <dt>Tokens</dt>
            <dd>
              {summary.usage.inputTokens} in, {summary.usage.outputTokens} out
              {summary.usage.costUsd !== undefined && `, $${summary.usage.costUsd}`}
            </dd>
            <dt>Duration</dt>
            <dd>
              p50 {summary.durationMs.p50 ?? '—'} ms, p95 {summary.durationMs.p95 ?? '—'} ms
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(experiment.createdAt)}</dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `experiment-${experiment.id}`)}>Event history</a>
            </dd>
          </dl>
          {experiment.status === 'succeeded' && <CompareWith experiment={experiment} />}
          <h2>Scores</h2>
          <div class="table-wrap">
            <table class="cards" data-testid="experiment-scores">
              <caption class="visually-hidden">Each scorer's mean</caption>
              <thead>
                <tr>
                  <th scope="col">Scorer</th>
                  <th scope="col">Mean</th>
                  <th scope="col">Threshold</th>
                  <th scope="col">Reached</th>
                </tr>
              </thead>
              <tbody>
                {summary.scorers.map((scorer) => (
                  <tr key={scorer.scorer}>
                    <td data-label="Scorer">{scorer.scorer}</td>
                    <td data-label="Mean">{scorer.mean ?? '—'}</td>
                    <td data-label="Threshold">{scorer.threshold ?? '—'}</td>
                    <td data-label="Reached">{scorer.passed === null ? '—' : scorer.passed ? 'yes' : 'no'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h2>Results</h2>
      <ProblemView error={results.error} />
      <div class="table-wrap">
        <table class="cards" data-testid="experiment-results">
          <caption class="visually-hidden">Each item's result</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Answer</th>
              <th scope="col">Scores</th>
            </tr>
          </thead>
          <tbody>
            {results.items.map((result) => (
              <tr key={result.itemId}>
                <td data-label="Run" class="mono">
                  <a href={runHref(experiment?.target, result.runId)}>{result.runId}</a>
                </td>
                <td data-label="Status">
                  <StatusBadge status={result.status} />
                </td>
                <td data-label="Answer" class="pre">
                  {result.output ?? result.error?.message ?? '—'}
                </td>
                <td data-label="Scores">
                  {result.scores.map((score) => (
                    <div key={score.scorer}>
                      {score.scorer}: <strong>{score.score}</strong>
                      {score.reason && <span class="muted"> ({score.reason})</span>}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!results.loading && results.items.length === 0 && <p>No item scored yet.</p>}
      <LoadMore hasMore={results.hasMore} loading={results.loading} onClick={results.loadMore} />
    </main>
  );
}

/** What the experiment ran on: the agent or the workflow, at its version. */
function TargetFacts({ target }: { target: Experiment['target'] }) {
  return target.workflowId ? (
    <>
      <dt>Workflow</dt>
      <dd>
        <a href={href('workflows', target.workflowId)}>{target.workflow}</a> (version {target.workflowVersion})
      </dd>
    </>
  ) : (
    <>
      <dt>Agent</dt>
      <dd>
        <a href={href('agents', target.agentId ?? '')}>{target.agent}</a> (version {target.agentVersion})
      </dd>
    </>
  );
}

/**
 * An item's run: the agent run's page, or the workflow run's under its workflow (none until the experiment, which
 * names the workflow, is loaded).
 */
function runHref(target: Experiment['target'] | undefined, runId: string): string | undefined {
  if (!runId.startsWith('wfrun_')) return href('agent-runs', runId);
  return target?.workflowId && href('workflows', target.workflowId, 'runs', runId);
}
