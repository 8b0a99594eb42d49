import { Command } from '@nestjs/cqrs';
import { Agent } from '../agent';

export class ArchiveAgentCommand extends Command<Agent> {
  constructor(
    readonly agentId: string,
    readonly ifMatch: number[] | undefined,
  ) {
    super();
  }
}
