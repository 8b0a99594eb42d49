import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { agentDecider, agentStream } from '../agent';
import { AgentRun, agentRunDecider, agentRunStream, toAgentRun } from '../agent-run';
import { RunAgentCommand } from './run-agent.command';

@CommandHandler(RunAgentCommand)
export class RunAgentHandler implements ICommandHandler<RunAgentCommand, AgentRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ agentId, task, context, outputSchema }: RunAgentCommand): Promise<AgentRun> {
    const agent = await this.actors.of(agentStream(agentId), agentDecider).read();
    if (!agent) throw new DomainError('not_found', `Agent ${agentId} does not exist`);
    if (agent.status === 'archived') throw new DomainError('conflict', `Agent ${agentId} is archived`);
    const id = this.ids.newId('agentrun');
    const queued = await this.actors.send(
      agentRunStream(id),
      agentRunDecider,
      {
        type: 'QueueAgentRun',
        id,
        agentId,
        model: agent.model,
        agentVersion: agent.version,
        task,
        context,
        ...(outputSchema && { outputSchema }),
      },
      { correlationId: id, causationId: agentId },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(queued.position);
    return toAgentRun(queued.state!);
  }
}
