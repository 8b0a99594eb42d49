import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowChanges } from '../workflow-changes';
import { WorkflowView } from '../workflow-view';
import { PauseWorkflowCommand } from './pause-workflow.command';

/** Stops the schedule (manual triggers still work); pausing a paused workflow changes nothing. */
@CommandHandler(PauseWorkflowCommand)
export class PauseWorkflowHandler implements ICommandHandler<PauseWorkflowCommand, WorkflowView> {
  constructor(private readonly workflows: WorkflowChanges) {}

  execute({ workflowId }: PauseWorkflowCommand): Promise<WorkflowView> {
    return this.workflows.change({ type: 'PauseWorkflow', workflowId });
  }
}
