import { Command } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { ReplayVersion } from './replay-workflow-run.dto';

export class ReplayWorkflowRunCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
    readonly fromStep: string,
    readonly input: Record<string, unknown> | undefined,
    readonly version: ReplayVersion,
  ) {
    super();
  }
}
