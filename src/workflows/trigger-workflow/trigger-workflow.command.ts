import { Command } from '@nestjs/cqrs';
import { RunTrigger } from '../workflow/workflow.state';
import { WorkflowRun } from '../workflow-run/workflow-run.state';

export class TriggerWorkflowCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly input: Record<string, unknown>,
    readonly trigger: RunTrigger = { type: 'manual' },
  ) {
    super();
  }
}
