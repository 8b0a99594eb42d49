import type { Scorer } from '../api/schema';
import { api, unwrap } from '../api/client';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href } from '../router';
import { ScorerForm } from './scorer-form';

/** Scorers: the list, and a form to define one. */
export function ScorersPage() {
  const list = usePagedList<Scorer>(async (cursor) => {
    const page = unwrap(await api.GET('/v1/scorers', { params: { query: { limit: 50, cursor } } }));
    return { items: page.scorers, nextCursor: page.nextCursor };
  }, 'scorers');

  return (
    <main>
      <div class="page-head">
        <h1>Scorers</h1>
      </div>
      <p class="muted">
        How an answer is judged, from 0 to 1: against the answer expected, a JSON Schema, a JSON Logic rule, or by a
        judge agent.
      </p>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Scorers</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((scorer) => (
              <tr key={scorer.id}>
                <td data-label="Name">
                  <a href={href('scorers', scorer.id)}>{scorer.name}</a>
                </td>
                <td data-label="Type">{scorer.type}</td>
                <td data-label="Status">
                  <StatusBadge status={scorer.status} />
                </td>
                <td data-label="Created">{formatTime(scorer.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No scorers yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
      <ScorerForm />
    </main>
  );
}
