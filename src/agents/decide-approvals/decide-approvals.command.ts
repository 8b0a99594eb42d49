import { Command } from '@nestjs/cqrs';
import { AgentRun, ApprovalDecision } from '../agent-run/agent-run.state';

export class DecideApprovalsCommand extends Command<AgentRun> {
  constructor(
    readonly agentId: string,
    readonly runId: string,
    readonly decisions: ApprovalDecision[],
  ) {
    super();
  }
}
