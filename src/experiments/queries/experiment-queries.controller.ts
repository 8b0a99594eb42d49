import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { ApiEventPaging, EventPageSchema } from '../../events/event.schema';
import { readStreamPage } from '../../events/event-pages';
import { RawQuery, parseHistoryQuery } from '../../events/event-query';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ListQuery } from '../../http/paging';
import { decodeCursor } from '../../read-models/page';
import { isId } from '../../shared/ids';
import { experimentStream } from '../experiment';
import { ExperimentListSchema, ExperimentResultListSchema, ExperimentSchema } from '../experiment.schema';
import { ExperimentQueries } from './experiment-queries';
import { CompareQuery } from './compare.query-params';
import { ExperimentComparisonSchema } from '../comparison.schema';
import { ExperimentsReadModel } from './experiments.read-model';

@ApiTags('experiments')
@Controller('v1/experiments')
export class ExperimentQueriesController {
  constructor(
    private readonly experiments: ExperimentsReadModel,
    private readonly queries: ExperimentQueries,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @ApiOperation({ summary: 'List experiments' })
  @ApiResponse({ status: 200, type: ExperimentListSchema })
  @ApiProblems(400)
  @Get()
  list(@Query() { limit, cursor }: ListQuery) {
    const page = this.experiments.list(
      decodeCursor(cursor, (id) => isId('experiment', id)),
      limit,
    );
    return { experiments: page.items.map((view) => this.queries.get(view.id)), nextCursor: page.nextCursor };
  }

  /** Static, so it is matched before `:experimentId`. */
  @ApiOperation({ summary: "Compare two experiments on one dataset: each scorer's change, and the items that changed" })
  @ApiResponse({ status: 200, type: ExperimentComparisonSchema })
  @ApiProblems(400, 404, 422)
  @Get('compare')
  compare(@Query() { base, head }: CompareQuery) {
    return this.queries.compare(base, head);
  }

  @ApiOperation({ summary: "Get an experiment: its progress, and each scorer's mean against its threshold" })
  @ApiResponse({ status: 200, type: ExperimentSchema })
  @ApiProblems(404)
  @Get(':experimentId')
  get(@IdParam('experimentId', 'experiment') experimentId: string) {
    return this.queries.get(experimentId);
  }

  @ApiOperation({ summary: "An experiment's results: each item's run, answer and scores, in the dataset's order" })
  @ApiResponse({ status: 200, type: ExperimentResultListSchema })
  @ApiProblems(400, 404)
  @Get(':experimentId/results')
  results(@IdParam('experimentId', 'experiment') experimentId: string, @Query() { limit, cursor }: ListQuery) {
    const after = decodeCursor(cursor, (id) => isId('dsitem', id));
    this.queries.get(experimentId);
    const page = this.experiments.results(experimentId, after, limit);
    return { results: page.items, nextCursor: page.nextCursor };
  }

  /** A bad query is a 400 before an unknown experiment is a 404. */
  @ApiOperation({ summary: 'The events of an experiment, oldest first' })
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiProblems(404)
  @Get(':experimentId/events')
  events(@IdParam('experimentId', 'experiment') experimentId: string, @Query() raw: RawQuery) {
    const query = parseHistoryQuery(raw);
    this.queries.get(experimentId);
    return readStreamPage(this.store, experimentStream(experimentId), query);
  }
}
