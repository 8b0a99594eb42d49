import { Decider } from '../../domain/decider';
import type { Agent } from '../agent';
import { AgentRunCommand, QueueAgentRun, StartAgentRun } from './agent-run.commands';
import { AgentRunEvent } from './agent-run.events';
import { AgentRunState } from './agent-run.state';
import { decideAgentRun } from './decide';
import { evolveAgentRun } from './evolve';

/** An agent run as a decider: its commands are decided in decide.ts, its events folded in evolve.ts. */
export const agentRunDecider: Decider<AgentRunState, AgentRunCommand, AgentRunEvent> = {
  initialState: null,
  // A run's stream is written a few times within moments, then never again; its executor holds an actor of its own.
  cacheActors: false,
  decide: decideAgentRun,
  evolve: evolveAgentRun,
};

/** The run as its queueing on a new stream leaves it: the decider's answer, before it is recorded. */
export function runQueuedBy(command: QueueAgentRun, now: Date): AgentRunState {
  return agentRunDecider.decide(null, command, now).reduce(agentRunDecider.evolve, null);
}

/**
 * The queueing of a run of `agent` that another run, a workflow step or an experiment starts: the agent's model and
 * version and its input checks, the run's own fields, and the claim `start` when the local executor has a slot.
 */
export function queueingFor(
  agent: Pick<Agent, 'id' | 'model' | 'version' | 'guardrails'>,
  run: Omit<QueueAgentRun, 'type' | 'agentId' | 'model' | 'agentVersion' | 'start' | 'inputChecks'>,
  start?: Omit<StartAgentRun, 'type'>,
): QueueAgentRun {
  return {
    type: 'QueueAgentRun',
    ...run,
    agentId: agent.id,
    model: agent.model,
    agentVersion: agent.version,
    ...(start && { start }),
    inputChecks: agent.guardrails?.input,
  };
}
