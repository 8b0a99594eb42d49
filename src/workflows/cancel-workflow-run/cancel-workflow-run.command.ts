import { Command } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run';

export class CancelWorkflowRunCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
  ) {
    super();
  }
}
