import { useEffect, useState } from 'preact/hooks';
import { asProblem, type ProblemError } from '../api/client';
import { eventPage } from '../api/event-pages';
import { ProblemView } from '../components/problem-view';
import { AgentRunPage } from './agent-run-page';

/** An agent run known only by its id (a workflow step's `agentRunId`): its first event names the agent. */
export function AgentRunByIdPage({ runId }: { runId: string }) {
  const [agentId, setAgentId] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    eventPage({ stream: `agentrun-${runId}`, limit: 1 }).then(
      (page) => {
        const first = page.events[0];
        if (first && typeof first.data.agentId === 'string') setAgentId(first.data.agentId);
        else setError(asProblem(new Error(`No agent run ${runId}`)));
      },
      (caught) => setError(asProblem(caught)),
    );
  }, [runId]);
  if (agentId) return <AgentRunPage agentId={agentId} runId={runId} />;
  return (
    <main>
      <ProblemView error={error} />
    </main>
  );
}
