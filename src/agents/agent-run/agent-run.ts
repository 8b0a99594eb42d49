import { Decider } from '../../domain/decider';
import { AgentRunCommand, QueueAgentRun } from './agent-run.commands';
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
