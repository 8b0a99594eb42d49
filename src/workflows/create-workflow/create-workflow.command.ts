import { Command } from '@nestjs/cqrs';
import { RunPolicy } from '../../domain/run-slots';
import { WorkflowStep, WorkflowTrigger } from '../workflow/workflow.state';
import { WorkflowView } from '../workflow-view';

export class CreateWorkflowCommand extends Command<WorkflowView> {
  constructor(
    readonly name: string,
    readonly trigger: WorkflowTrigger,
    readonly steps: WorkflowStep[],
    /** `outputStep`, and the run policy (`overlap`, `maxConcurrentRuns`). */
    readonly options: { outputStep?: string } & RunPolicy = {},
  ) {
    super();
  }
}
