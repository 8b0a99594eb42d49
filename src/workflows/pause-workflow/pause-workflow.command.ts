import { Command } from '@nestjs/cqrs';
import { WorkflowView } from '../workflow-view';

export class PauseWorkflowCommand extends Command<WorkflowView> {
  constructor(readonly workflowId: string) {
    super();
  }
}
