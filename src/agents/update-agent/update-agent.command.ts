import { Command } from '@nestjs/cqrs';
import { Agent } from '../agent';

/** `patch`: the request's JSON Merge Patch, its top-level fields checked; `ifMatch`: the versions accepted. */
export class UpdateAgentCommand extends Command<Agent> {
  constructor(
    readonly agentId: string,
    readonly patch: Record<string, unknown>,
    readonly ifMatch: number[] | undefined,
  ) {
    super();
  }
}
