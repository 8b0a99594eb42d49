import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { ThreadsReadModel, ThreadView } from '../queries/threads.read-model';
import { threadDecider, threadStream } from '../thread';
import { ArchiveThreadCommand } from './archive-thread.command';
import { traceOf } from '../../shared/trace-context';

/** Archives a thread: it keeps its messages and takes no more runs; archiving again answers it again. */
@CommandHandler(ArchiveThreadCommand)
export class ArchiveThreadHandler implements ICommandHandler<ArchiveThreadCommand, ThreadView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly threads: ThreadsReadModel,
  ) {}

  async execute(command: ArchiveThreadCommand): Promise<ThreadView> {
    const { threadId } = command;
    const { position } = await this.actors.send(
      threadStream(threadId),
      threadDecider,
      { type: 'ArchiveThread', threadId },
      { correlationId: threadId, causationId: threadId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(position);
    const thread = this.threads.get(threadId);
    if (!thread) throw new DomainError('not_found', `Thread ${threadId} does not exist`);
    return thread;
  }
}
