import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowChanges } from '../workflow-changes';
import { WorkflowView } from '../workflow-view';
import { PauseWorkflowCommand } from './pause-workflow.command';
import { traceOf } from '../../shared/trace-context';

/** Stops the schedule (manual triggers still work); pausing a paused workflow changes nothing. */
@CommandHandler(PauseWorkflowCommand)
export class PauseWorkflowHandler implements ICommandHandler<PauseWorkflowCommand, WorkflowView> {
  constructor(private readonly workflows: WorkflowChanges) {}

  execute(command: PauseWorkflowCommand): Promise<WorkflowView> {
    const { workflowId } = command;
    return this.workflows.change({ type: 'PauseWorkflow', workflowId }, traceOf(command));
  }
}
