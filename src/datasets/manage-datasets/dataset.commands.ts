import { Command } from '@nestjs/cqrs';
import { Dataset, DatasetTarget } from '../dataset';
import { DatasetItem } from '../queries/datasets.read-model';
import type { AddDatasetItemDto } from './dataset.dto';

export class CreateDatasetCommand extends Command<Dataset> {
  constructor(
    readonly name: string,
    readonly description: string,
    readonly target: DatasetTarget,
  ) {
    super();
  }
}

export class ArchiveDatasetCommand extends Command<Dataset> {
  constructor(readonly datasetId: string) {
    super();
  }
}

export class AddDatasetItemCommand extends Command<DatasetItem> {
  constructor(
    readonly datasetId: string,
    readonly item: AddDatasetItemDto,
  ) {
    super();
  }
}

export class RemoveDatasetItemCommand extends Command<void> {
  constructor(
    readonly datasetId: string,
    readonly itemId: string,
  ) {
    super();
  }
}
