import { Command } from '@nestjs/cqrs';
import { WorkflowView } from '../workflow-view';

/** `patch`: the request's JSON Merge Patch, its top-level fields checked; `ifMatch`: the versions accepted. */
export class UpdateWorkflowCommand extends Command<WorkflowView> {
  constructor(
    readonly workflowId: string,
    readonly patch: Record<string, unknown>,
    readonly ifMatch: number[] | undefined,
  ) {
    super();
  }
}
