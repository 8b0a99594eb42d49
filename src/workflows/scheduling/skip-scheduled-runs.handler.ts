import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { SkipScheduledRunsCommand } from './skip-scheduled-runs.command';

@CommandHandler(SkipScheduledRunsCommand)
export class SkipScheduledRunsHandler implements ICommandHandler<SkipScheduledRunsCommand, void> {
  constructor(private readonly actors: ActorRegistry) {}

  async execute({ workflowId, first, last, count }: SkipScheduledRunsCommand): Promise<void> {
    await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'SkipScheduledRuns', workflowId, first: first.toISOString(), last: last.toISOString(), count },
      { correlationId: workflowId, causationId: workflowId },
    );
  }
}
