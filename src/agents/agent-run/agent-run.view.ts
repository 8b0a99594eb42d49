import { AgentRun, AgentRunAggregate } from './agent-run.state';

/** The public view of a run: without who executes it. */
export function toAgentRun({
  executorId: _e,
  heartbeatAt: _h,
  decided: _d,
  waitingSince: _w,
  ...run
}: AgentRunAggregate): AgentRun {
  // Runs recorded before structured output have neither field.
  return {
    ...run,
    outputSchema: run.outputSchema ?? null,
    outputObject: run.outputObject ?? null,
    threadId: run.threadId ?? null,
    replayOf: run.replayOf ?? null,
    pendingApprovals: run.pendingApprovals ?? [],
    // Runs recorded before fallback models have neither field.
    modelAttempts: run.modelAttempts ?? [],
    answeredModel: run.answeredModel ?? (run.status === 'succeeded' ? run.model : null),
    guardrails: run.guardrails ?? [],
  };
}
