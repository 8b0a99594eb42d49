import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { workflowDecider, workflowStream } from '../workflow';
import { WorkflowView, workflowView } from '../workflow-view';
import { ResumeWorkflowCommand } from './resume-workflow.command';

/** Starts the schedule again from now (ticks while paused are not run); resuming an active workflow changes nothing. */
@CommandHandler(ResumeWorkflowCommand)
export class ResumeWorkflowHandler implements ICommandHandler<ResumeWorkflowCommand, WorkflowView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
  ) {}

  async execute({ workflowId }: ResumeWorkflowCommand): Promise<WorkflowView> {
    const { state, position } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'ResumeWorkflow', workflowId },
      { correlationId: workflowId, causationId: workflowId },
    );
    await this.readYourWrites.waitFor(position);
    return workflowView(state!, this.clock.now());
  }
}
