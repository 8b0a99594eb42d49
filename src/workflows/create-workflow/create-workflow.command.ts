import { Command } from '@nestjs/cqrs';
import { RunPolicy } from '../../domain/run-slots';
import { Workflow, WorkflowStep, WorkflowTrigger } from '../workflow/workflow.state';
import { WorkflowView } from '../workflow-view';

export class CreateWorkflowCommand extends Command<WorkflowView> {
  constructor(
    readonly name: string,
    readonly trigger: WorkflowTrigger,
    readonly steps: WorkflowStep[],
    /** `outputStep`, `inputSchema`, and the run policy (`overlap`, `maxConcurrentRuns`). */
    readonly options: Pick<Workflow, 'outputStep' | 'inputSchema'> & RunPolicy = {},
  ) {
    super();
  }
}
