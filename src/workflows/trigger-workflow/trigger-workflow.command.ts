import { Command } from '@nestjs/cqrs';
import { RunTrigger } from '../workflow';
import { WorkflowRun } from '../workflow-run';

export class TriggerWorkflowCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly input: Record<string, unknown>,
    readonly trigger: RunTrigger = { type: 'manual' },
  ) {
    super();
  }
}
