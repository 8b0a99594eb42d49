import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, type ProblemError, unwrap } from '../api/client';
import type { ExperimentComparison } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { formatJson } from '../format';
import { href } from '../router';

type Side = ExperimentComparison['changed'][number]['base'];

/** Two experiments side by side: each scorer's mean before and after, and the items that changed, worst first. */
export function ExperimentComparePage({ base, head }: { base: string; head: string }) {
  const [comparison, setComparison] = useState<ExperimentComparison | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  useEffect(() => {
    api
      .GET('/v1/experiments/compare', { params: { query: { base, head } } })
      .then((answer) => setComparison(unwrap(answer)))
      .catch((caught: unknown) => setError(asProblem(caught)));
  }, [base, head]);

  const name = (side: ExperimentComparison['base']) => (
    <a href={href('experiments', side.id)}>
      {side.agent ?? side.workflow} (version {side.agentVersion ?? side.workflowVersion}
      {side.overrides && `, with overrides ${JSON.stringify(side.overrides)}`}
      {side.mode === 'recorded' && ', recorded tools'}), dataset version {side.datasetVersion}
    </a>
  );
  const scores = (side: Side) =>
    side.scores.map((score) => (
      <div key={score.scorer}>
        {score.scorer}: <strong>{score.score}</strong>
      </div>
    ));

  return (
    <main>
      <p>
        <a href={href('experiments')}>← Experiments</a>
      </p>
      <div class="page-head">
        <h1>Comparison</h1>
      </div>
      <ProblemView error={error} />
      {comparison && (
        <>
          <dl class="facts">
            <dt>Before</dt>
            <dd>{name(comparison.base)}</dd>
            <dt>After</dt>
            <dd>{name(comparison.head)}</dd>
            <dt>Items</dt>
            <dd data-testid="compare-counts">
              {comparison.items.compared} compared: {comparison.items.worse} worse, {comparison.items.better} better,{' '}
              {comparison.items.same} the same
            </dd>
          </dl>
          <h2>Scores</h2>
          <div class="table-wrap">
            <table class="cards" data-testid="compare-scorers">
              <caption class="visually-hidden">Each scorer's mean, before and after</caption>
              <thead>
                <tr>
                  <th scope="col">Scorer</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {comparison.scorers.map((scorer) => (
                  <tr key={scorer.scorer}>
                    <td data-label="Scorer">{scorer.scorer}</td>
                    <td data-label="Before">{scorer.base ?? '—'}</td>
                    <td data-label="After">{scorer.head ?? '—'}</td>
                    <td data-label="Change">{scorer.change ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Items that changed, worst first</h2>
          {comparison.changed.length === 0 && <p>No item's score changed.</p>}
          <div class="table-wrap">
            <table class="cards" data-testid="compare-items">
              <caption class="visually-hidden">The items whose score changed</caption>
              <thead>
                <tr>
                  <th scope="col">Input</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {comparison.changed.map((item) => (
                  <tr key={item.itemId}>
                    <td data-label="Input">
                      <pre class="mono">{formatJson(item.input)}</pre>
                    </td>
                    <td data-label="Before" class="pre">
                      {item.base.output ?? item.base.status}
                      {scores(item.base)}
                    </td>
                    <td data-label="After" class="pre">
                      {item.head.output ?? item.head.status}
                      {scores(item.head)}
                    </td>
                    <td data-label="Change">{item.change}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </main>
  );
}
