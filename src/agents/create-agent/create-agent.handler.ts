import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { CommandContext } from '../../actors/actor';
import { DomainError } from '../../domain/decider';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { IdGenerator } from '../../shared/ids';
import { Agent, agentDecider, agentStream } from '../agent';
import { agentNameDecider, agentNameStream } from '../agent-name';
import { CreateAgentCommand } from './create-agent.command';

@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler implements ICommandHandler<CreateAgentCommand, Agent> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ name, model, instructions, tools, maxSteps }: CreateAgentCommand): Promise<Agent> {
    const id = this.ids.newId('agent');
    const context = { correlationId: id, causationId: id };
    await this.claimName(name, id, context);
    const created = await this.actors.send(
      agentStream(id),
      agentDecider,
      { type: 'CreateAgent', id, name, model, instructions, tools, maxSteps },
      context,
      { newStream: true },
    );
    await this.projections.waitFor(created.position);
    return created.state!;
  }

  /** Claims the name first, so two agents never share it; an orphaned claim (see agent-name.ts) is taken over. */
  private async claimName(name: string, agentId: string, context: CommandContext): Promise<void> {
    const stream = agentNameStream(name);
    try {
      // Most names are new: skip reading the stream; a taken name shows up as a conflict and is read then.
      await this.actors.send(stream, agentNameDecider, { type: 'ClaimAgentName', name, agentId }, context, {
        newStream: true,
      });
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      const { claimedBy } = await this.actors.read(stream, agentNameDecider);
      const owner = claimedBy && (await this.actors.read(agentStream(claimedBy), agentDecider));
      if (owner || !claimedBy) throw error;
      await this.actors.send(
        stream,
        agentNameDecider,
        { type: 'ClaimAgentName', name, agentId, orphanOf: claimedBy },
        context,
      );
    }
  }
}
