import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { workflowDecider, workflowStream } from '../workflow';
import { WorkflowView, workflowView } from '../workflow-view';
import { ArchiveWorkflowCommand } from './archive-workflow.command';

/**
 * Archives the workflow: no trigger, schedule tick, pause, resume or change is accepted after it, and the
 * scheduler drops its job when the read model shows it. Runs already recorded go on. Archiving again changes nothing.
 */
@CommandHandler(ArchiveWorkflowCommand)
export class ArchiveWorkflowHandler implements ICommandHandler<ArchiveWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {}

  async execute({ workflowId, ifMatch }: ArchiveWorkflowCommand): Promise<WorkflowView> {
    const { state, position } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'ArchiveWorkflow', workflowId, ifMatch },
      { correlationId: workflowId, causationId: workflowId },
    );
    await this.readYourWrites.waitFor(position);
    return workflowView(state!, this.clock.now());
  }
}
