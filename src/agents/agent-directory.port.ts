import type { RunStatus } from '../domain/run';
import type { Agent } from './agent';

/**
 * What the features built on agents read of them, and no more: the agents a workflow's steps name, whether a
 * step's agent run waits for a person, and the names usage shows beside agent ids. The agents module answers it
 * from its read model.
 */
export abstract class AgentDirectory {
  /** Whether an agent that is not archived has this name. */
  abstract hasAgentNamed(name: string): boolean;

  /** The agent that is not archived and has this name, if any. */
  abstract activeAgentNamed(name: string): Agent | undefined;

  /** The id of the latest archived agent of this name, if any. */
  abstract archivedAgentNamed(name: string): string | undefined;

  abstract get(agentId: string): Agent | undefined;

  /** The agent's name as it is now (an archived agent keeps its own), if there is such an agent. */
  abstract nameOf(agentId: string): string | undefined;

  /** The status of the agent run as the read models show it, if they show it. */
  abstract runStatus(runId: string): RunStatus | undefined;
}
