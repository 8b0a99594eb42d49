import { useEffect, useState } from 'preact/hooks';
import { api, asProblem, unwrap, type ProblemError } from '../api/client';
import type { Agent, Workflow } from '../api/schema';
import { ProblemView } from '../components/problem-view';
import { StatusBadge } from '../components/status-badge';
import { formatJson } from '../format';
import { href } from '../router';

type Kind = 'agents' | 'workflows';

/** An agent or workflow as it was at one version (`?version=N`), reached from its history. */
export function DefinitionVersionPage({ kind, id, version }: { kind: Kind; id: string; version: string }) {
  const [definition, setDefinition] = useState<Agent | Workflow | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    const query = { version: Number(version) };
    const read =
      kind === 'agents'
        ? api.GET('/v1/agents/{agentId}', { params: { path: { agentId: id }, query } })
        : api.GET('/v1/workflows/{workflowId}', { params: { path: { workflowId: id }, query } });
    read.then(
      (result) => setDefinition(unwrap(result as never)),
      (caught) => setError(asProblem(caught)),
    );
  }, [kind, id, version]);
  const stream = `${kind === 'agents' ? 'agent' : 'workflow'}-${id}`;
  return (
    <main>
      <p>
        <a href={href(kind, id)}>← {kind === 'agents' ? 'Agent' : 'Workflow'} as it is now</a> ·{' '}
        <a href={href('history', stream)}>History</a>
      </p>
      <div class="page-head">
        <h1>
          {definition?.name ?? id} at version {version}
        </h1>
        {definition && <StatusBadge status={definition.status} />}
      </div>
      <ProblemView error={error} />
      {definition && (
        <pre class="output" data-testid="definition-version" tabIndex={0} role="region" aria-label="Definition">
          {formatJson(definition)}
        </pre>
      )}
    </main>
  );
}
