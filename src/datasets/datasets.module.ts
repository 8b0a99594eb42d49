import { Module } from '@nestjs/common';
import { DatasetItems } from './dataset-items.port';
import {
  AddDatasetItemHandler,
  ArchiveDatasetHandler,
  CreateDatasetHandler,
  RemoveDatasetItemHandler,
} from './manage-datasets/dataset-commands.handler';
import { DatasetsController } from './manage-datasets/datasets.controller';
import { DatasetQueriesController } from './queries/dataset-queries.controller';
import { GetDatasetHandler, ListDatasetItemsHandler, ListDatasetsHandler } from './queries/dataset.queries';
import { DatasetsProjection } from './queries/datasets.projection';
import { DatasetsReadModel } from './queries/datasets.read-model';

/** Datasets: named sets of inputs with the answers expected, given by hand or made from runs (docs/api.md). */
@Module({
  controllers: [DatasetsController, DatasetQueriesController],
  providers: [
    CreateDatasetHandler,
    ArchiveDatasetHandler,
    AddDatasetItemHandler,
    RemoveDatasetItemHandler,
    ListDatasetsHandler,
    GetDatasetHandler,
    ListDatasetItemsHandler,
    DatasetsReadModel,
    DatasetsProjection,
    { provide: DatasetItems, useExisting: DatasetsReadModel },
  ],
  exports: [DatasetsReadModel, DatasetItems],
})
export class DatasetsModule {}
