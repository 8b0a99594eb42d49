import { Command } from '@nestjs/cqrs';
import { Workflow, WorkflowStep, WorkflowTrigger } from '../workflow';

export class CreateWorkflowCommand extends Command<Workflow> {
  constructor(
    readonly name: string,
    readonly trigger: WorkflowTrigger,
    readonly steps: WorkflowStep[],
  ) {
    super();
  }
}
