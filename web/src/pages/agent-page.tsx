import { useEffect, useState } from 'preact/hooks';
import { ScoresChart } from '../components/scores-chart';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Agent, AgentRun } from '../api/schema';
import { Field } from '../components/field';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatDuration, formatJson, formatTime, parseJsonObject, shownText } from '../format';
import { href, navigate } from '../router';
import { agentNamedBy, subAgentNames } from '../forms/agent-tools';
import { AgentEditForm } from './agent-edit-form';
import { AgentProtocols } from './agent-protocols';
import { HandoffsList } from './handoffs-list';
import { SubAgentsList } from './sub-agents-list';
import { NewThreadForm } from './new-thread-form';

/** One agent: what it is, a form to run it on a task, and its runs. */
export function AgentPage({ agentId }: { agentId: string }) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    api.GET('/v1/agents/{agentId}', { params: { path: { agentId } } }).then(
      (result) => setAgent(unwrap(result)),
      (caught) => setError(asProblem(caught)),
    );
  }, [agentId]);

  async function archive() {
    if (!confirm(`Archive ${agent?.name}? It is kept, with its runs, but can no longer run.`)) return;
    const remove = (force: boolean) =>
      api.DELETE('/v1/agents/{agentId}', { params: { path: { agentId }, query: force ? { force: 'true' } : {} } });
    try {
      setAgent(unwrap(await remove(false)));
    } catch (caught) {
      const problem = asProblem(caught);
      // Workflows use it: say which, and archive only if asked to anyway.
      if (problem.problem.status !== 409 || !confirm(`${problem.problem.detail}\n\nArchive it anyway?`)) {
        return setError(problem);
      }
      try {
        setAgent(unwrap(await remove(true)));
      } catch (again) {
        setError(asProblem(again));
      }
    }
  }

  // Built-in and MCP tools; the other agents it may call are listed apart.
  const tools = agent ? agent.tools.filter((tool) => agentNamedBy(tool) === undefined) : [];
  return (
    <main>
      <p>
        <a href={href('agents')}>← Agents</a>
      </p>
      <ProblemView error={error} />
      {agent && (
        <>
          <div class="page-head">
            <h1>{agent.name}</h1>
            <StatusBadge status={agent.status} />
          </div>
          {agent.description && (
            <p class="lead" data-testid="agent-description">
              {agent.description}
            </p>
          )}
          <dl class="facts">
            <dt>Model</dt>
            <dd>{agent.model}</dd>
            <dt>Fallback models</dt>
            <dd data-testid="agent-fallback-models">
              {agent.fallbackModels.length ? agent.fallbackModels.join(', ') : 'none'}
            </dd>
            <dt>Tools</dt>
            <dd>{tools.length ? tools.join(', ') : 'none'}</dd>
            <dt>Sub-agents</dt>
            <SubAgentsList names={subAgentNames(agent.tools)} self={agent} />
            <dt>Handoffs</dt>
            <HandoffsList handoffs={agent.handoffs} />
            <dt>Needs approval</dt>
            <dd data-testid="agent-approvals">
              {agent.approvalRequired.length ? agent.approvalRequired.join(', ') : 'no tool'}
            </dd>
            <dt>Max steps</dt>
            <dd>{agent.maxSteps}</dd>
            <dt>Thread window</dt>
            <dd>{agent.memory.maxMessages} messages</dd>
            <dt>Memory</dt>
            <dd data-testid="agent-memory">
              {agent.memory.namespace
                ? `namespace ${agent.memory.namespace}${agent.memory.recall ? `, recalls up to ${agent.memory.recall.limit} items` : ''}${agent.memory.tools ? ', with memory tools' : ''}`
                : 'none'}
            </dd>
            <dt>Version</dt>
            <dd data-testid="agent-version">{agent.version}</dd>
            <dt>Instructions</dt>
            <dd class="pre">{agent.instructions || '—'}</dd>
            <dt>Output schema</dt>
            <dd>
              {agent.outputSchema ? (
                <pre data-testid="agent-output-schema">{formatJson(agent.outputSchema)}</pre>
              ) : (
                'none: free-text answers'
              )}
            </dd>
            <dt>Guardrails</dt>
            <dd>
              {Object.keys(agent.guardrails).length ? (
                <pre data-testid="agent-guardrails">{formatJson(agent.guardrails)}</pre>
              ) : (
                'none'
              )}
            </dd>
            <dt>Live scorers</dt>
            <dd data-testid="agent-scorers">
              {agent.scorers.length
                ? agent.scorers
                    .map((entry) => `${entry.scorer} (${Math.round(entry.sampling * 1000) / 10}% of runs)`)
                    .join(', ')
                : 'none'}
            </dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `agent-${agent.id}`)}>Event history</a>
            </dd>
          </dl>
          <ScoresChart agentId={agent.id} />
          {agent.status === 'active' && <AgentProtocols agent={agent} />}
          {agent.status === 'active' && (
            <>
              <RunForm agentId={agentId} />
              <NewThreadForm agentId={agentId} />
              <details class="edit">
                <summary>Edit agent</summary>
                <AgentEditForm key={agent.version} agent={agent} onSaved={setAgent} />
              </details>
              <button type="button" class="secondary danger" onClick={archive}>
                Archive agent
              </button>
            </>
          )}
          <AgentRuns agentId={agentId} />
        </>
      )}
    </main>
  );
}

function RunForm({ agentId }: { agentId: string }) {
  const [task, setTask] = useState('');
  const [context, setContext] = useState('');
  const [contextError, setContextError] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = parseJsonObject(context);
      setContextError(null);
    } catch (caught) {
      return setContextError((caught as Error).message);
    }
    try {
      const run = unwrap(
        await api.POST('/v1/agents/{agentId}/run', { params: { path: { agentId } }, body: { task, context: parsed } }),
      );
      navigate('agents', agentId, 'runs', run.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form onSubmit={submit} class="card" noValidate>
      <h2>Run on a task</h2>
      <Field id="run-task" label="Task" path="task" error={error}>
        {(describedBy, invalid) => (
          <textarea
            id="run-task"
            rows={3}
            value={task}
            onInput={(e) => setTask(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <Field
        id="run-context"
        label="Context (JSON object, optional)"
        path="context"
        error={error}
        localError={contextError}
      >
        {(describedBy, invalid) => (
          <textarea
            id="run-context"
            rows={2}
            class="mono"
            value={context}
            onInput={(e) => setContext(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <ProblemView error={error} shownPaths={['task', 'context']} />
      <button type="submit">Run</button>
    </form>
  );
}

function AgentRuns({ agentId }: { agentId: string }) {
  const list = usePagedList<AgentRun>(async (cursor) => {
    const page = unwrap(
      await api.GET('/v1/agents/{agentId}/runs', {
        params: { path: { agentId }, query: { limit: 50, cursor, order: 'desc' } },
      }),
    );
    return { items: page.runs, nextCursor: page.nextCursor };
  }, agentId);
  return (
    <section>
      <h2>Runs</h2>
      <ProblemView error={list.error} />
      <div class="table-wrap">
        <table class="cards">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Task</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((run) => (
              <tr key={run.id}>
                <td data-label="Run">
                  <a href={href('agents', agentId, 'runs', run.id)}>{formatTime(run.createdAt)}</a>
                </td>
                <td data-label="Status">
                  <StatusBadge status={run.status} />
                </td>
                <td data-label="Task" class="truncate">
                  {shownText(run.task)}
                </td>
                <td data-label="Duration">{formatDuration(run.startedAt, run.endedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!list.loading && list.items.length === 0 && <p>No runs yet.</p>}
      <LoadMore hasMore={list.hasMore} loading={list.loading} onClick={list.loadMore} />
    </section>
  );
}
