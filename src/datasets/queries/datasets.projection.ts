import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { DATASET_EVENT_TYPES, DatasetEvent } from '../dataset';
import { DatasetsReadModel } from './datasets.read-model';

/** Keeps `datasets` and their items, with the versions each item was added and removed in, in step with the log. */
@Injectable()
export class DatasetsProjection extends ReadModelProjection {
  readonly name = 'datasets';
  readonly eventTypes = DATASET_EVENT_TYPES;

  constructor(
    private readonly readModel: DatasetsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as DatasetEvent;
    if (event.type === 'DatasetCreated') {
      const { createdAt, ...created } = event.data;
      const dataset = { ...created, status: 'active' as const, version: 1, itemCount: 0 };
      return this.readModel.put({ ...dataset, createdAt, updatedAt: createdAt, archivedAt: null });
    }
    const dataset = this.readModel.get(event.data.datasetId);
    if (!dataset) return;
    switch (event.type) {
      case 'DatasetItemAdded': {
        const { datasetId, itemId, version, addedAt, input, expected, metadata, sourceRunId } = event.data;
        const item = { id: itemId, datasetId, input, expected, metadata, sourceRunId };
        this.readModel.addItem({ ...item, addedInVersion: version, createdAt: addedAt });
        return this.readModel.put({ ...dataset, version, itemCount: dataset.itemCount + 1, updatedAt: addedAt });
      }
      case 'DatasetItemRemoved': {
        const { datasetId, itemId, version, removedAt } = event.data;
        this.readModel.removeItem(datasetId, itemId, version);
        return this.readModel.put({ ...dataset, version, itemCount: dataset.itemCount - 1, updatedAt: removedAt });
      }
      case 'DatasetArchived': {
        const { archivedAt } = event.data;
        return this.readModel.put({ ...dataset, status: 'archived', archivedAt, updatedAt: archivedAt });
      }
    }
  }
}
