import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Workflow, WorkflowRun } from '../api/schema';
import { Field } from '../components/field';
import { LoadMore } from '../components/load-more';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { usePagedList } from '../components/use-paged-list';
import { formatDuration, formatJson, formatTime, parseJsonObject } from '../format';
import { href, navigate } from '../router';
import { describeTrigger } from './workflows-page';
import { BackfillForm } from './backfill-form';
import { WorkflowEditForm } from './workflow-edit-form';
import { WorkflowStepsView } from './workflow-steps-view';

/** One workflow: its steps and schedule, pause/resume, a trigger with JSON input, and its runs. */
export function WorkflowPage({ workflowId }: { workflowId: string }) {
  const [workflow, setWorkflow] = useState<Workflow | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  const path = { params: { path: { workflowId } } };
  useEffect(() => {
    api.GET('/v1/workflows/{workflowId}', path).then(
      (result) => setWorkflow(unwrap(result)),
      (caught) => setError(asProblem(caught)),
    );
  }, [workflowId]);

  async function change(action: 'pause' | 'resume') {
    try {
      const result =
        action === 'pause'
          ? await api.POST('/v1/workflows/{workflowId}/pause', path)
          : await api.POST('/v1/workflows/{workflowId}/resume', path);
      setWorkflow(unwrap(result));
      setError(null);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  async function archive() {
    if (!confirm(`Archive ${workflow?.name}? It is kept, with its runs, but can no longer run.`)) return;
    try {
      setWorkflow(unwrap(await api.DELETE('/v1/workflows/{workflowId}', path)));
      setError(null);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <main>
      <p>
        <a href={href('workflows')}>← Workflows</a>
      </p>
      <ProblemView error={error} />
      {workflow && (
        <>
          <div class="page-head">
            <h1>{workflow.name}</h1>
            <span role="status" data-testid="workflow-status">
              <StatusBadge status={workflow.status} />
            </span>
            {workflow.status === 'active' && workflow.trigger.type === 'schedule' && (
              <button type="button" class="secondary" onClick={() => change('pause')}>
                Pause
              </button>
            )}
            {workflow.status === 'paused' && (
              <button type="button" class="secondary" onClick={() => change('resume')}>
                Resume
              </button>
            )}
            {workflow.status !== 'archived' && (
              <button type="button" class="secondary danger" onClick={archive}>
                Archive workflow
              </button>
            )}
          </div>
          <dl class="facts">
            <dt>Trigger</dt>
            <dd>{describeTrigger(workflow.trigger)}</dd>
            <dt>Last run</dt>
            <dd>
              {workflow.latestRun ? (
                <a href={href('workflows', workflow.id, 'runs', workflow.latestRun.id)}>
                  {formatTime(workflow.latestRun.at)} ({workflow.latestRun.status})
                </a>
              ) : (
                '—'
              )}
            </dd>
            <dt>Next run{workflow.trigger.timezone ? ` (${workflow.trigger.timezone})` : ''}</dt>
            <dd>{formatTime(workflow.nextRunAt, workflow.trigger.timezone)}</dd>
            <dt>Output step</dt>
            <dd data-testid="workflow-output-step">
              {workflow.outputStep ?? 'the last step by position among those that ran'}
            </dd>
            <dt>Overlap</dt>
            <dd data-testid="workflow-overlap">{workflow.overlap}</dd>
            <dt>Max concurrent runs</dt>
            <dd data-testid="workflow-max-runs">{workflow.maxConcurrentRuns ?? 'no limit'}</dd>
            <dt>Concurrency per key</dt>
            <dd data-testid="workflow-concurrency">
              {workflow.concurrency ? (
                <>
                  at most {workflow.concurrency.limit} at once per <code>{workflow.concurrency.key}</code>
                </>
              ) : (
                'no limit per key'
              )}
            </dd>
            <dt>Input schema</dt>
            <dd data-testid="workflow-input-schema">
              {workflow.inputSchema ? <pre>{formatJson(workflow.inputSchema)}</pre> : 'none (any object)'}
            </dd>
            <dt>History</dt>
            <dd>
              <a href={href('history', `workflow-${workflow.id}`)}>Event history</a>
            </dd>
          </dl>
          <h2>Steps</h2>
          <WorkflowStepsView steps={workflow.steps} />
          {workflow.status !== 'archived' && (
            <>
              <TriggerForm workflowId={workflowId} />
              {workflow.trigger.type === 'schedule' && <BackfillForm workflowId={workflowId} />}
              <details class="edit">
                <summary>Edit workflow</summary>
                <WorkflowEditForm key={workflow.version} workflow={workflow} onSaved={setWorkflow} />
              </details>
            </>
          )}
          <WorkflowRuns workflowId={workflowId} />
        </>
      )}
    </main>
  );
}

function TriggerForm({ workflowId }: { workflowId: string }) {
  const [input, setInput] = useState('{}');
  const [inputError, setInputError] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = parseJsonObject(input);
      setInputError(null);
    } catch (caught) {
      return setInputError((caught as Error).message);
    }
    try {
      const run = unwrap(
        await api.POST('/v1/workflows/{workflowId}/trigger', {
          params: { path: { workflowId } },
          body: { input: parsed },
        }),
      );
      navigate('workflows', workflowId, 'runs', run.id);
    } catch (caught) {
      setError(asProblem(caught));
    }
  }

  return (
    <form class="card" onSubmit={submit} noValidate>
      <h2>Trigger</h2>
      <Field id="trigger-input" label="Input (JSON object)" path="input" error={error} localError={inputError}>
        {(describedBy, invalid) => (
          <textarea
            id="trigger-input"
            class="mono"
            rows={3}
            value={input}
            onInput={(e) => setInput(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      <ProblemView error={error} shownPaths={['input']} />
      <button type="submit">Trigger</button>
    </form>
  );
}

function WorkflowRuns({ workflowId }: { workflowId: string }) {
  const list = usePagedList<WorkflowRun>(async (cursor) => {
    const page = unwrap(
      await api.GET('/v1/workflows/{workflowId}/runs', {
        params: { path: { workflowId }, query: { limit: 50, cursor, order: 'desc' } },
      }),
    );
    return { items: page.runs, nextCursor: page.nextCursor };
  }, workflowId);
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
              <th scope="col">Trigger</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((run) => (
              <tr key={run.id}>
                <td data-label="Run">
                  <a href={href('workflows', workflowId, 'runs', run.id)}>{formatTime(run.createdAt)}</a>
                </td>
                <td data-label="Status">
                  <StatusBadge status={run.status} />
                </td>
                <td data-label="Trigger">
                  {run.trigger.type === 'schedule'
                    ? `${run.trigger.backfill ? 'backfill' : 'schedule'}, ${formatTime(run.trigger.scheduledFor)}`
                    : 'manual'}
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
