import { Command } from '@nestjs/cqrs';
import { WorkflowView } from '../workflow-view';

export class ArchiveWorkflowCommand extends Command<WorkflowView> {
  constructor(
    readonly workflowId: string,
    readonly ifMatch: number[] | undefined,
  ) {
    super();
  }
}
