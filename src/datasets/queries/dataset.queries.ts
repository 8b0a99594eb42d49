import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { Page, decodeCursor } from '../../read-models/page';
import { isId } from '../../shared/ids';
import { ValidationFailed } from '../../shared/validation-failed';
import { Dataset } from '../dataset';
import { DatasetItem, DatasetsReadModel } from './datasets.read-model';

export class ListDatasetsQuery extends Query<Page<Dataset>> {
  constructor(
    readonly limit: number,
    readonly cursor?: string,
    readonly status?: Dataset['status'],
  ) {
    super();
  }
}

export class GetDatasetQuery extends Query<Dataset> {
  constructor(readonly datasetId: string) {
    super();
  }
}

export class ListDatasetItemsQuery extends Query<Page<DatasetItem> & { version: number }> {
  constructor(
    readonly datasetId: string,
    readonly limit: number,
    readonly cursor?: string,
    readonly version?: number,
  ) {
    super();
  }
}

function existing(readModel: DatasetsReadModel, datasetId: string): Dataset {
  const dataset = readModel.get(datasetId);
  if (!dataset) throw new DomainError('not_found', `Dataset ${datasetId} does not exist`);
  return dataset;
}

@QueryHandler(ListDatasetsQuery)
export class ListDatasetsHandler implements IQueryHandler<ListDatasetsQuery> {
  constructor(private readonly readModel: DatasetsReadModel) {}

  async execute({ limit, cursor, status }: ListDatasetsQuery) {
    return this.readModel.list(
      decodeCursor(cursor, (id) => isId('dataset', id)),
      limit,
      status,
    );
  }
}

@QueryHandler(GetDatasetQuery)
export class GetDatasetHandler implements IQueryHandler<GetDatasetQuery> {
  constructor(private readonly readModel: DatasetsReadModel) {}

  async execute({ datasetId }: GetDatasetQuery) {
    return existing(this.readModel, datasetId);
  }
}

/** The items of the dataset's current version, or of an earlier one (`version`), oldest first. */
@QueryHandler(ListDatasetItemsQuery)
export class ListDatasetItemsHandler implements IQueryHandler<ListDatasetItemsQuery> {
  constructor(private readonly readModel: DatasetsReadModel) {}

  async execute({ datasetId, limit, cursor, version }: ListDatasetItemsQuery) {
    const after = decodeCursor(cursor, (id) => isId('dsitem', id));
    const dataset = existing(this.readModel, datasetId);
    if (version !== undefined && version > dataset.version) {
      const message = `must be at most the dataset's version, ${dataset.version}`;
      throw new ValidationFailed([{ path: 'version', message }]);
    }
    const at = version ?? dataset.version;
    return { ...this.readModel.items(datasetId, at, after, limit), version: at };
  }
}
