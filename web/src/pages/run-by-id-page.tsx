import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { asProblem, type ProblemError } from '../api/client';
import { eventPage } from '../api/event-pages';
import { ProblemView } from '../components/problem-view';
import { AgentRunPage } from './agent-run-page';
import { WorkflowRunPage } from './workflow-run-page';

/** An agent run known only by its id (a workflow step's `agentRunId`): its first event names the agent. */
export function AgentRunByIdPage({ runId }: { runId: string }) {
  return (
    <RunById stream={`agentrun-${runId}`} owner="agentId" what={`agent run ${runId}`}>
      {(agentId) => <AgentRunPage agentId={agentId} runId={runId} />}
    </RunById>
  );
}

/** A workflow run known only by its id (a child run's `parentRunId`): its first event names the workflow. */
export function WorkflowRunByIdPage({ runId }: { runId: string }) {
  return (
    <RunById stream={`workflowrun-${runId}`} owner="workflowId" what={`workflow run ${runId}`}>
      {(workflowId) => <WorkflowRunPage workflowId={workflowId} runId={runId} />}
    </RunById>
  );
}

/** Finds the agent or workflow a run belongs to from the first event of its stream, then shows the run's page. */
function RunById({
  stream,
  owner,
  what,
  children,
}: {
  stream: string;
  owner: 'agentId' | 'workflowId';
  what: string;
  children: (ownerId: string) => ComponentChildren;
}) {
  const [ownerId, setOwnerId] = useState<string | null>(null);
  const [error, setError] = useState<ProblemError | null>(null);
  useEffect(() => {
    eventPage({ stream, limit: 1 }).then(
      (page) => {
        const first = page.events[0];
        if (first && typeof first.data[owner] === 'string') setOwnerId(first.data[owner]);
        else setError(asProblem(new Error(`No ${what}`)));
      },
      (caught) => setError(asProblem(caught)),
    );
  }, [stream]);
  if (ownerId) return <>{children(ownerId)}</>;
  return (
    <main>
      <ProblemView error={error} />
    </main>
  );
}
