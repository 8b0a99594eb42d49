import { Command } from '@nestjs/cqrs';
import { Agent } from '../agent';

export class ArchiveAgentCommand extends Command<Agent> {
  constructor(
    readonly agentId: string,
    readonly ifMatch: number[] | undefined,
    /** Archive even when workflows that are not archived name the agent in a step. */
    readonly force = false,
  ) {
    super();
  }
}
