import type { Experiment } from '../api/schema';
import { api, unwrap } from '../api/client';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href } from '../router';
import { ExperimentForm } from './experiment-form';

/** What an experiment's `passed` says, in words. */
export function passedText(passed: boolean | null): string {
  return passed === null ? '—' : passed ? 'passed' : 'did not pass';
}

/** Experiments: the list, and a form to run one. */
export function ExperimentsPage() {
  const list = usePagedList<Experiment>(async (cursor) => {
    const page = unwrap(await api.GET('/v1/experiments', { params: { query: { limit: 50, cursor } } }));
    return { items: page.experiments, nextCursor: page.nextCursor };
  }, 'experiments');

  return (
    <main>
      <div class="page-head">
        <h1>Experiments</h1>
      </div>
      <p class="muted">A dataset's items run on an agent, each answer scored: whether a change made it better.</p>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Experiments</caption>
          <thead>
            <tr>
              <th scope="col">Experiment</th>
              <th scope="col">Agent or workflow</th>
              <th scope="col">Dataset</th>
              <th scope="col">Status</th>
              <th scope="col">Scored</th>
              <th scope="col">Passed</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((experiment) => (
              <tr key={experiment.id}>
                <td data-label="Experiment" class="mono">
                  <a href={href('experiments', experiment.id)}>{experiment.id}</a>
                </td>
                <td data-label="Agent or workflow">{experiment.target.agent ?? experiment.target.workflow}</td>
                <td data-label="Dataset">
                  {experiment.dataset.name} (version {experiment.dataset.version})
                </td>
                <td data-label="Status">
                  <StatusBadge status={experiment.status} />
                </td>
                <td data-label="Scored">
                  {experiment.progress.scored} of {experiment.progress.total}
                </td>
                <td data-label="Passed">{passedText(experiment.passed)}</td>
                <td data-label="Created">{formatTime(experiment.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No experiments yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
      <ExperimentForm />
    </main>
  );
}
