import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { Clock } from '../../shared/clock';
import { Agent, agentDecider, agentStream } from '../agent';
import { AgentNameClaims } from '../agent-name-claims';
import { ArchiveAgentCommand } from './archive-agent.command';

/**
 * Archives the agent, then frees its name. Archiving again answers the archived agent and frees the name again,
 * should the first release have failed; either way a claim by an archived agent is an orphan (see agent-name.ts).
 */
@CommandHandler(ArchiveAgentCommand)
export class ArchiveAgentHandler implements ICommandHandler<ArchiveAgentCommand, Agent> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly names: AgentNameClaims,
    private readonly clock: Clock,
  ) {}

  async execute({ agentId, ifMatch }: ArchiveAgentCommand): Promise<Agent> {
    const context = { correlationId: agentId, causationId: agentId };
    const { state, position } = await this.actors.send(
      agentStream(agentId),
      agentDecider,
      { type: 'ArchiveAgent', agentId, ifMatch },
      context,
    );
    const agent = state!;
    // An archived agent is never renamed, so any claim it holds on its name is one to release.
    await this.names.release(agent.name, agentId, this.clock.now().toISOString(), context);
    await this.readYourWrites.waitFor(position);
    return agent;
  }
}
