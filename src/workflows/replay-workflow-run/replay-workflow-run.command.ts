import { Command } from '@nestjs/cqrs';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { ReplayVersion } from './replay-workflow-run.dto';

export class ReplayWorkflowRunCommand extends Command<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
    /** A step's id, or its position from 0. */
    readonly fromStep: string | number,
    readonly input: Record<string, unknown> | undefined,
    readonly version: ReplayVersion,
  ) {
    super();
  }
}
