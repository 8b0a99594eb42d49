import { Command } from '@nestjs/cqrs';
import { WorkflowStep, WorkflowTrigger } from '../workflow';
import { WorkflowView } from '../workflow-view';

export class CreateWorkflowCommand extends Command<WorkflowView> {
  constructor(
    readonly name: string,
    readonly trigger: WorkflowTrigger,
    readonly steps: WorkflowStep[],
    readonly outputStep?: string,
  ) {
    super();
  }
}
