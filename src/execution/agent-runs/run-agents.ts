import type { ActorRegistry } from '../../actors/actor-registry';
import { Agent, agentDecider, agentStream } from '../../agents/agent';
import type { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import { RecordedCalls } from '../agent-loop/recorded-calls';
import { trialAgent } from '../../agents/agent-trial';
import { DomainError } from '../../domain/decider';
import { ValidationFailed } from '../../shared/validation-failed';
import { HandoffFailed } from './run-outcome';

/**
 * The agent a run runs: as it is now, or, in an experiment's trial, at its version with its overrides. Null when
 * there is no such agent (the run then fails with `agent_not_found`).
 */
export async function agentOf(actors: ActorRegistry, run: AgentRunAggregate): Promise<Agent | null> {
  if (!run.trial || run.agentVersion === null) return actors.of(agentStream(run.agentId), agentDecider).read();
  try {
    return await trialAgent(actors, run.agentId, run.agentVersion, run.trial.overrides);
  } catch (error) {
    if (error instanceof DomainError || error instanceof ValidationFailed) return null;
    throw error;
  }
}

/** The agent whose turn the run is on: after a handoff, the last one handed to; else the one a thread's turn names. */
export async function agentNow(actors: ActorRegistry, run: AgentRunAggregate, agent: Agent): Promise<Agent> {
  const id = run.handoffs?.length ? run.handoffs[run.handoffs.length - 1].to : run.startAgentId;
  if (!id || id === agent.id) return agent;
  const other = await actors.of(agentStream(id), agentDecider).read();
  if (!other || other.status === 'archived') throw new HandoffFailed(run.handoffs?.at(-1)?.toName ?? id);
  return other;
}

/**
 * In a trial that replays a recorded run, that run's tool calls (less those this run has replayed already); else
 * undefined. A recorded run that is gone replays nothing: every call then runs its tool, and counts as a miss.
 */
export async function recordedCallsOf(
  actors: ActorRegistry,
  run: AgentRunAggregate,
): Promise<RecordedCalls | undefined> {
  const from = run.trial?.recordedFrom;
  if (!from) return undefined;
  const recorded = await actors.of(agentRunStream(from), agentRunDecider).read();
  return new RecordedCalls(recorded?.toolCalls ?? [], run.toolCalls);
}
