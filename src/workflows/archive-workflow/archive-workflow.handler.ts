import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowChanges } from '../workflow-changes';
import { WorkflowView } from '../workflow-view';
import { ArchiveWorkflowCommand } from './archive-workflow.command';
import { traceOf } from '../../shared/trace-context';

/**
 * Archives the workflow: no trigger, schedule tick, pause, resume or change is accepted after it, and the
 * scheduler drops its job when the read model shows it. Runs already recorded go on. Archiving again changes nothing.
 */
@CommandHandler(ArchiveWorkflowCommand)
export class ArchiveWorkflowHandler implements ICommandHandler<ArchiveWorkflowCommand, WorkflowView> {
  constructor(private readonly workflows: WorkflowChanges) {}

  execute(command: ArchiveWorkflowCommand): Promise<WorkflowView> {
    const { workflowId, ifMatch } = command;
    return this.workflows.change({ type: 'ArchiveWorkflow', workflowId, ifMatch }, traceOf(command));
  }
}
