import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowChanges } from '../workflow-changes';
import { WorkflowView } from '../workflow-view';
import { ResumeWorkflowCommand } from './resume-workflow.command';
import { traceOf } from '../../shared/trace-context';

/** Starts the schedule again from now (ticks while paused are not run); resuming an active workflow changes nothing. */
@CommandHandler(ResumeWorkflowCommand)
export class ResumeWorkflowHandler implements ICommandHandler<ResumeWorkflowCommand, WorkflowView> {
  constructor(private readonly workflows: WorkflowChanges) {}

  execute(command: ResumeWorkflowCommand): Promise<WorkflowView> {
    const { workflowId } = command;
    return this.workflows.change({ type: 'ResumeWorkflow', workflowId }, traceOf(command));
  }
}
