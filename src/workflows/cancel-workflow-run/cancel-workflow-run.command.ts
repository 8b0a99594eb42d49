import { Command } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run/workflow-run.state';

export class CancelWorkflowRunCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
  ) {
    super();
  }
}
