import { Command } from '@nestjs/cqrs';
import { AgentRun } from '../agent-run/agent-run.state';

export class CancelAgentRunCommand extends Command<AgentRun> {
  constructor(
    readonly agentId: string,
    readonly runId: string,
  ) {
    super();
  }
}
