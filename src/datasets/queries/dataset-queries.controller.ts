import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { ApiEventPaging, EventPageSchema } from '../../events/event.schema';
import { readStreamPage } from '../../events/event-pages';
import { RawQuery, parseHistoryQuery } from '../../events/event-query';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { datasetStream } from '../dataset';
import { DatasetItemListSchema, DatasetListSchema, DatasetSchema } from '../dataset.schema';
import { DatasetItemListQuery, DatasetListQuery } from './dataset-list.query-params';
import { GetDatasetQuery, ListDatasetItemsQuery, ListDatasetsQuery } from './dataset.queries';
import { DatasetsReadModel } from './datasets.read-model';

@ApiTags('datasets')
@Controller('v1/datasets')
export class DatasetQueriesController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly datasets: DatasetsReadModel,
  ) {}

  @ApiOperation({ summary: 'List datasets' })
  @ApiResponse({ status: 200, type: DatasetListSchema })
  @ApiProblems(400)
  @Get()
  async list(@Query() { limit, cursor, status }: DatasetListQuery) {
    const page = await this.queries.execute(new ListDatasetsQuery(limit, cursor, status));
    return { datasets: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a dataset' })
  @ApiResponse({ status: 200, type: DatasetSchema })
  @ApiProblems(404)
  @Get(':datasetId')
  get(@IdParam('datasetId', 'dataset') datasetId: string) {
    return this.queries.execute(new GetDatasetQuery(datasetId));
  }

  @ApiOperation({ summary: "A dataset's items, now or at an earlier version, oldest first" })
  @ApiResponse({ status: 200, type: DatasetItemListSchema })
  @ApiProblems(400, 404)
  @Get(':datasetId/items')
  async items(@IdParam('datasetId', 'dataset') datasetId: string, @Query() query: DatasetItemListQuery) {
    const { limit, cursor, version } = query;
    const page = await this.queries.execute(new ListDatasetItemsQuery(datasetId, limit, cursor, version));
    return { items: page.items, version: page.version, nextCursor: page.nextCursor };
  }

  /** A bad query is a 400 before an unknown dataset is a 404. */
  @ApiOperation({ summary: 'The events of a dataset, oldest first' })
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiProblems(404)
  @Get(':datasetId/events')
  events(@IdParam('datasetId', 'dataset') datasetId: string, @Query() raw: RawQuery) {
    const query = parseHistoryQuery(raw);
    if (!this.datasets.get(datasetId)) throw new DomainError('not_found', `Dataset ${datasetId} does not exist`);
    return readStreamPage(this.store, datasetStream(datasetId), query);
  }
}
