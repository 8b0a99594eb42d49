import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { WorkflowSummary } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { useDebounced } from '../components/use-debounced';
import { usePagedList } from '../components/use-paged-list';
import { formatTime } from '../format';
import { href } from '../router';

type StatusFilter = '' | 'active' | 'paused' | 'archived';

/** Workflows, a page at a time, filtered by name prefix and status on the service. */
export function WorkflowsPage() {
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const name = useDebounced(filter.trim(), 250);
  const list = usePagedList<WorkflowSummary>(async (cursor) => {
    const query = { limit: 50, cursor, ...(name ? { name } : {}), ...(status ? { status } : {}) };
    const page = unwrap(await api.GET('/v1/workflows', { params: { query } }));
    return { items: page.workflows, nextCursor: page.nextCursor };
  }, `${name}|${status}`);

  return (
    <main>
      <div class="page-head">
        <h1>Workflows</h1>
        <a class="button" href={href('workflows', 'new')}>
          New workflow
        </a>
      </div>
      <div class="filters">
        <div class="field">
          <label for="workflow-filter">Filter by name</label>
          <input id="workflow-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="workflow-status">Status</label>
          <select
            id="workflow-status"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as StatusFilter)}
          >
            <option value="">active and paused</option>
            <option value="active">active</option>
            <option value="paused">paused</option>
            <option value="archived">archived</option>
          </select>
        </div>
      </div>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Workflows</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Trigger</th>
              <th scope="col">Last run</th>
              <th scope="col">Next run</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((workflow) => (
              <tr key={workflow.id}>
                <td data-label="Name">
                  <a href={href('workflows', workflow.id)}>{workflow.name}</a>
                </td>
                <td data-label="Status">
                  <StatusBadge status={workflow.status} />
                </td>
                <td data-label="Trigger">{describeTrigger(workflow.trigger)}</td>
                <td data-label="Last run">
                  {workflow.latestRun ? (
                    <a href={href('workflows', workflow.id, 'runs', workflow.latestRun.id)}>
                      {formatTime(workflow.latestRun.at)} ({workflow.latestRun.status})
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Next run">{formatTime(workflow.nextRunAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No workflows yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
    </main>
  );
}

export function describeTrigger(trigger: WorkflowSummary['trigger']): string {
  return trigger.type === 'schedule' ? `${trigger.cron} (${trigger.timezone ?? 'UTC'})` : 'manual';
}
