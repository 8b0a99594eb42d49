import { AgentRun, AgentRunAggregate, PendingApproval } from './agent-run.state';

/** The public view of a run: without who executes it. */
export function toAgentRun({
  executorId: _e,
  heartbeatAt: _h,
  decided: _d,
  waitingSince: _w,
  childrenUsage: _c,
  lastHandoff: _l,
  inputChecked: _i,
  ...run
}: AgentRunAggregate): AgentRun {
  // Runs recorded before structured output have neither field.
  return {
    ...run,
    outputSchema: run.outputSchema ?? null,
    outputObject: run.outputObject ?? null,
    threadId: run.threadId ?? null,
    replayOf: run.replayOf ?? null,
    // Runs recorded before the protocol adapters have none.
    source: run.source ?? null,
    // Runs recorded before experiments have none.
    experimentId: run.experimentId ?? null,
    trial: run.trial ?? null,
    // Runs recorded before live scores have none.
    scores: run.scores ?? [],
    pendingApprovals: (run.pendingApprovals ?? []).map(ownedBy(run)),
    // Runs recorded before fallback models have neither field.
    modelAttempts: run.modelAttempts ?? [],
    answeredModel: run.answeredModel ?? (run.status === 'succeeded' ? run.model : null),
    guardrails: run.guardrails ?? [],
    // Runs recorded before trees of runs have none of these.
    parentRunId: run.parentRunId ?? null,
    parentToolCallId: run.parentToolCallId ?? null,
    depth: run.depth ?? 0,
    children: run.children ?? [],
    waitingOn: run.waitingOn ?? [],
    totalUsage: run.totalUsage === undefined ? run.usage : run.totalUsage,
    // Runs recorded before handoffs have none.
    handoffs: run.handoffs ?? [],
    answeredBy: run.answeredBy ?? (run.status === 'succeeded' ? run.agentId : null),
    startAgentId: run.startAgentId ?? null,
    // Only a thread's turns have these.
    multitask: run.multitask ?? null,
    supersededBy: run.supersededBy ?? null,
    recalled: run.recalled ?? null,
  };
}

/** A run's own pending calls, each naming the run and its agent. */
export function ownedBy(run: Pick<AgentRun, 'id' | 'agentId'>) {
  return (approval: PendingApproval): PendingApproval => ({ ...approval, runId: run.id, agentId: run.agentId });
}
