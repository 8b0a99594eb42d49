import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { CommandContext } from '../../actors/actor';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { traceOf } from '../../shared/trace-context';
import { Dataset, datasetDecider, datasetStream, toDataset } from '../dataset';
import { DatasetItem } from '../queries/datasets.read-model';
import {
  AddDatasetItemCommand,
  ArchiveDatasetCommand,
  CreateDatasetCommand,
  RemoveDatasetItemCommand,
} from './dataset.commands';
import { itemOf } from './dataset-item-input';
import { DomainError } from '../../domain/decider';

const contextOf = (datasetId: string, command: object): CommandContext => ({
  correlationId: datasetId,
  causationId: datasetId,
  trace: traceOf(command),
});

@CommandHandler(CreateDatasetCommand)
export class CreateDatasetHandler implements ICommandHandler<CreateDatasetCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: CreateDatasetCommand): Promise<Dataset> {
    const { name, description, target } = command;
    const id = this.ids.newId('dataset');
    const created = await this.actors.send(
      datasetStream(id),
      datasetDecider,
      { type: 'CreateDataset', id, name, description, target },
      contextOf(id, command),
      { newStream: true },
    );
    await this.readYourWrites.waitFor(created.position);
    return toDataset(created.state!);
  }
}

@CommandHandler(ArchiveDatasetCommand)
export class ArchiveDatasetHandler implements ICommandHandler<ArchiveDatasetCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: ArchiveDatasetCommand): Promise<Dataset> {
    const { datasetId } = command;
    const archived = await this.actors.send(
      datasetStream(datasetId),
      datasetDecider,
      { type: 'ArchiveDataset', datasetId },
      contextOf(datasetId, command),
    );
    await this.readYourWrites.waitFor(archived.position);
    return toDataset(archived.state!);
  }
}

@CommandHandler(AddDatasetItemCommand)
export class AddDatasetItemHandler implements ICommandHandler<AddDatasetItemCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: AddDatasetItemCommand): Promise<DatasetItem> {
    const { datasetId } = command;
    const stream = datasetStream(datasetId);
    const dataset = await this.actors.of(stream, datasetDecider).read();
    if (!dataset) throw new DomainError('not_found', `Dataset ${datasetId} does not exist`);
    const item = await itemOf(command.item, dataset.target, this.actors);
    const itemId = this.ids.newId('dsitem');
    const added = await this.actors.send(
      stream,
      datasetDecider,
      { type: 'AddDatasetItem', datasetId, itemId, item },
      contextOf(datasetId, command),
    );
    await this.readYourWrites.waitFor(added.position);
    const { version, addedAt } = added.events[0].data as { version: number; addedAt: string };
    return { id: itemId, datasetId, ...item, addedInVersion: version, createdAt: addedAt };
  }
}

@CommandHandler(RemoveDatasetItemCommand)
export class RemoveDatasetItemHandler implements ICommandHandler<RemoveDatasetItemCommand> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: RemoveDatasetItemCommand): Promise<void> {
    const { datasetId, itemId } = command;
    const removed = await this.actors.send(
      datasetStream(datasetId),
      datasetDecider,
      { type: 'RemoveDatasetItem', datasetId, itemId },
      contextOf(datasetId, command),
    );
    await this.readYourWrites.waitFor(removed.position);
  }
}
