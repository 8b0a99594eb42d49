import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { Agent, agentDecider, agentStream } from '../agent';
import { AgentNameClaims } from '../agent-name-claims';
import { agentNameDecider, agentNameStream } from '../agent-name';
import { CreateAgentCommand } from './create-agent.command';
import { traceOf } from '../../shared/trace-context';

@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler implements ICommandHandler<CreateAgentCommand, Agent> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly names: AgentNameClaims,
  ) {}

  async execute(command: CreateAgentCommand): Promise<Agent> {
    const { definition } = command;
    const id = this.ids.newId('agent');
    const { name } = definition;
    const context = { correlationId: id, causationId: id, trace: traceOf(command) };
    const create = { type: 'CreateAgent' as const, id, ...definition };
    // A new name and the agent in one commit, where the store can; otherwise (EventStoreDB, a name claimed
    // before) step by step.
    const together = await this.actors.sendToNewStreams(
      [
        {
          stream: agentNameStream(name),
          decider: agentNameDecider,
          command: { type: 'ClaimAgentName', name, agentId: id },
        },
        { stream: agentStream(id), decider: agentDecider, command: create },
      ],
      context,
    );
    if (together) {
      await this.readYourWrites.waitFor(together[1].position!);
      return together[1].state as Agent;
    }
    // The name first, so two agents never share it; an orphaned claim (see agent-name.ts) is taken over.
    await this.names.claim(name, id, context);
    const created = await this.actors.send(agentStream(id), agentDecider, create, context, { newStream: true });
    await this.readYourWrites.waitFor(created.position);
    return created.state!;
  }
}
