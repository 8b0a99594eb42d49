import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WorkflowsReadModel } from '../queries/workflows.read-model';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { TriggerWorkflowCommand } from './trigger-workflow.command';
import { WorkflowTriggers } from './workflow-triggers';
import { checkRunInput } from './run-input-check';
import { traceOf } from '../../shared/trace-context';

@CommandHandler(TriggerWorkflowCommand)
export class TriggerWorkflowHandler implements ICommandHandler<TriggerWorkflowCommand, WorkflowRun> {
  constructor(
    private readonly triggers: WorkflowTriggers,
    private readonly workflows: WorkflowsReadModel,
  ) {}

  async execute(command: TriggerWorkflowCommand): Promise<WorkflowRun> {
    const { workflowId, input, trigger, source } = command;
    // The schema as the read model has it: an update answers once the read models show it, so a trigger sent after
    // an update's answer is checked against the schema it set.
    const inputSchema = this.workflows.inputSchemaOf(workflowId);
    if (inputSchema) await checkRunInput(inputSchema, input);
    // Only a schedule tick can be skipped or kept for later by the overlap policy.
    return (await this.triggers.trigger(workflowId, input, trigger, { source }, traceOf(command)))!;
  }
}
