import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { AgentListItem } from '../api/schema';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { useDebounced } from '../components/use-debounced';
import { formatTime } from '../format';
import { href } from '../router';

/** Agents, a page at a time, filtered by a name prefix on the service. */
export function AgentsPage() {
  const [filter, setFilter] = useState('');
  const [archived, setArchived] = useState(false);
  const name = useDebounced(filter.trim(), 250);
  const list = usePagedList<AgentListItem>(async (cursor) => {
    const query = {
      limit: 50,
      cursor,
      ...(name ? { name } : {}),
      ...(archived ? { status: 'archived' as const } : {}),
    };
    const page = unwrap(await api.GET('/v1/agents', { params: { query } }));
    return { items: page.agents, nextCursor: page.nextCursor };
  }, `${name}|${archived}`);

  return (
    <main>
      <div class="page-head">
        <h1>Agents</h1>
        <a class="button" href={href('agents', 'new')}>
          New agent
        </a>
      </div>
      <div class="filters">
        <div class="field">
          <label for="agent-filter">Filter by name</label>
          <input id="agent-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </div>
        <label class="checkbox">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.currentTarget.checked)} /> Archived
        </label>
      </div>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <caption class="visually-hidden">Agents</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Last run</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((agent) => (
              <tr key={agent.id}>
                <td data-label="Name">
                  <a href={href('agents', agent.id)}>{agent.name}</a>
                </td>
                <td data-label="Model">{agent.model}</td>
                <td data-label="Status">
                  <StatusBadge status={agent.status} />
                </td>
                <td data-label="Last run">
                  {agent.latestRun ? (
                    <a href={href('agents', agent.id, 'runs', agent.latestRun.id)}>
                      {formatTime(agent.latestRun.at)} ({agent.latestRun.status})
                    </a>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No agents{name ? ` named ${name}…` : ''} yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
    </main>
  );
}
