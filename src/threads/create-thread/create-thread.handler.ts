import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { agentDecider, agentStream } from '../../agents/agent';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { ThreadsReadModel, ThreadView } from '../queries/threads.read-model';
import { threadDecider, threadStream } from '../thread';
import { CreateThreadCommand } from './create-thread.command';
import { traceOf } from '../../shared/trace-context';

@CommandHandler(CreateThreadCommand)
export class CreateThreadHandler implements ICommandHandler<CreateThreadCommand, ThreadView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
    private readonly threads: ThreadsReadModel,
  ) {}

  async execute(command: CreateThreadCommand): Promise<ThreadView> {
    const { agentId, metadata, subjectId } = command;
    const agent = await this.actors.of(agentStream(agentId), agentDecider).read();
    if (!agent) {
      throw new DomainError('unprocessable', `Agent ${agentId} does not exist`, [
        { path: 'agentId', message: 'is not an agent' },
      ]);
    }
    if (agent.status === 'archived') throw new DomainError('conflict', `Agent ${agentId} is archived`);
    const id = this.ids.newId('thread');
    const created = await this.actors.send(
      threadStream(id),
      threadDecider,
      { type: 'CreateThread', id, agentId, metadata, ...(subjectId && { subjectId }) },
      { correlationId: id, causationId: id, trace: traceOf(command) },
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    const { recordedRuns: _runs, summaryThrough: _summary, ...thread } = created.state!;
    return this.threads.get(id) ?? { ...thread, subjectId: thread.subjectId ?? null, status: 'idle', summary: null };
  }
}
