import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import type { AgentRun, AgentSummary } from '../api/schema';
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
  const list = usePagedList<AgentSummary>(async (cursor) => {
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
        <table>
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
                <td>
                  <a href={href('agents', agent.id)}>{agent.name}</a>
                </td>
                <td>{agent.model}</td>
                <td>
                  <StatusBadge status={agent.status} />
                </td>
                <td>
                  <LastRun agentId={agent.id} />
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

/** The agent's latest run: its runs are listed oldest first, so this follows the cursor (a few pages at most). */
function LastRun({ agentId }: { agentId: string }) {
  const [run, setRun] = useState<AgentRun | null | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    (async () => {
      let cursor: string | undefined;
      let last: AgentRun | null = null;
      for (let pages = 0; pages < 5; pages++) {
        const page = unwrap(
          await api.GET('/v1/agents/{agentId}/runs', { params: { path: { agentId }, query: { limit: 200, cursor } } }),
        );
        last = page.runs.at(-1) ?? last;
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      if (!stopped) setRun(last);
    })().catch(() => !stopped && setRun(null));
    return () => void (stopped = true);
  }, [agentId]);
  if (run === undefined) return <span class="muted">…</span>;
  if (run === null) return <span class="muted">never</span>;
  return (
    <a href={href('agents', agentId, 'runs', run.id)}>
      <StatusBadge status={run.status} /> {formatTime(run.createdAt)}
    </a>
  );
}
