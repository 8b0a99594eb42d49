import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { DomainError } from '../../domain/decider';
import { WorkflowRunState } from '../../workflows/workflow-run/workflow-run.state';

/**
 * Cancels the agent runs a run's stopped steps leave running: a cancelled step's, a step's past its time limit, and
 * a map step's cancelled items'. An agent run that has ended meanwhile refuses, which is fine.
 */
export async function cancelStoppedAgentRuns(actors: ActorRegistry, run: WorkflowRunState | undefined): Promise<void> {
  const stopped = (run?.steps ?? []).flatMap((step) => {
    const items = (step.items ?? []).filter((item) => item.status === 'cancelled' && item.agentRunId !== null);
    const own = step.status === 'cancelled' || step.error?.code === 'step_timeout';
    return [...items.map((item) => item.agentRunId!), ...(own && step.agentRunId !== null ? [step.agentRunId] : [])];
  });
  for (const agentRunId of stopped) {
    const context = { correlationId: run!.id, causationId: run!.id };
    await actors
      .send(agentRunStream(agentRunId), agentRunDecider, { type: 'CancelAgentRun' }, context)
      .catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      });
  }
}
