import { Command } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run/workflow-run.state';

export class DecideWorkflowApprovalCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
    readonly decision: 'approve' | 'reject',
    readonly reason?: string,
    readonly data?: Record<string, unknown>,
  ) {
    super();
  }
}
