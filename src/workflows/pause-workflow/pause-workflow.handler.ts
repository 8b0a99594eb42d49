import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { workflowDecider, workflowStream } from '../workflow';
import { WorkflowView, workflowView } from '../workflow-view';
import { PauseWorkflowCommand } from './pause-workflow.command';

/** Stops the schedule (manual triggers still work); pausing a paused workflow changes nothing. */
@CommandHandler(PauseWorkflowCommand)
export class PauseWorkflowHandler implements ICommandHandler<PauseWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {}

  async execute({ workflowId }: PauseWorkflowCommand): Promise<WorkflowView> {
    const { state, position } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'PauseWorkflow', workflowId },
      { correlationId: workflowId, causationId: workflowId },
    );
    await this.readYourWrites.waitFor(position);
    return workflowView(state!, this.clock.now());
  }
}
