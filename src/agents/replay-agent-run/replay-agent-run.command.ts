import { Command } from '@nestjs/cqrs';
import { AgentRun } from '../agent-run/agent-run.state';

/** A new run of the agent with a recorded run's task and context, or with the ones given instead. */
export class ReplayAgentRunCommand extends Command<AgentRun> {
  constructor(
    readonly agentId: string,
    readonly runId: string,
    readonly task?: string,
    readonly context?: Record<string, unknown>,
  ) {
    super();
  }
}
