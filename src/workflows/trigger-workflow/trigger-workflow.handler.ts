import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { TriggerWorkflowCommand } from './trigger-workflow.command';
import { WorkflowTriggers } from './workflow-triggers';
import { traceOf } from '../../shared/trace-context';

@CommandHandler(TriggerWorkflowCommand)
export class TriggerWorkflowHandler implements ICommandHandler<TriggerWorkflowCommand, WorkflowRun> {
  constructor(private readonly triggers: WorkflowTriggers) {}

  async execute(command: TriggerWorkflowCommand): Promise<WorkflowRun> {
    const { workflowId, input, trigger } = command;
    // Only a schedule tick can be skipped or kept for later by the overlap policy.
    return (await this.triggers.trigger(workflowId, input, trigger, undefined, traceOf(command)))!;
  }
}
