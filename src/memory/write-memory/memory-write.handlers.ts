import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { traceOf } from '../../shared/trace-context';
import { ValidationFailed } from '../../shared/validation-failed';
import { memoryItemDecider, memoryStream } from '../memory-item';
import { MemoryReadModel, MemoryView } from '../queries/memory.read-model';
import { MemoryVectors } from '../semantic/memory-vectors';
import { DeleteMemoryCommand, PutMemoryCommand } from './memory-write.commands';
import { MAX_MEMORY_VALUE_BYTES } from '../memory-address';

/** Records a new version of the item, and answers with it once the read models (and the vectors, if any) have it. */
@CommandHandler(PutMemoryCommand)
export class PutMemoryHandler implements ICommandHandler<PutMemoryCommand, MemoryView> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly memory: MemoryReadModel,
    private readonly vectors: MemoryVectors,
  ) {}

  async execute(command: PutMemoryCommand): Promise<MemoryView> {
    const { namespace, key, value, ttlSeconds } = command;
    if (value === undefined) throw new ValidationFailed([{ path: 'value', message: 'value is required' }]);
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > MAX_MEMORY_VALUE_BYTES) {
      const message = `value must be at most ${MAX_MEMORY_VALUE_BYTES} bytes as JSON (${bytes})`;
      throw new ValidationFailed([{ path: 'value', message }]);
    }
    const stream = memoryStream(namespace, key);
    const put = {
      type: 'PutMemoryItem' as const,
      namespace,
      key,
      value,
      ...(ttlSeconds !== undefined && { ttlSeconds }),
    };
    const context = { correlationId: stream, causationId: stream, trace: traceOf(command) };
    const { position, state } = await this.actors.send(stream, memoryItemDecider, put, context);
    await this.readYourWrites.waitFor(position);
    if (this.vectors.enabled) await this.vectors.caughtUp(namespace, key);
    return this.memory.version(namespace, key, state!.version)!;
  }
}

/** Removes the item (a 404 when there is none, or it has expired); its versions stay in its history. */
@CommandHandler(DeleteMemoryCommand)
export class DeleteMemoryHandler implements ICommandHandler<DeleteMemoryCommand, void> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: DeleteMemoryCommand): Promise<void> {
    const stream = memoryStream(command.namespace, command.key);
    const context = { correlationId: stream, causationId: stream, trace: traceOf(command) };
    const { position } = await this.actors.send(stream, memoryItemDecider, { type: 'DeleteMemoryItem' }, context);
    await this.readYourWrites.waitFor(position);
  }
}
