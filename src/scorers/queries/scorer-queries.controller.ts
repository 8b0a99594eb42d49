import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../../domain/decider';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { ApiEventPaging, EventPageSchema } from '../../events/event.schema';
import { readStreamPage } from '../../events/event-pages';
import { RawQuery, parseHistoryQuery } from '../../events/event-query';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { decodeCursor } from '../../read-models/page';
import { isId } from '../../shared/ids';
import { scorerStream } from '../scorer';
import { ScorerListSchema, ScorerSchema } from '../scorer.schema';
import { ScorerListQuery } from './scorer-list.query-params';
import { ScorersReadModel } from './scorers.read-model';

/** The scorers, from their read model; a scorer's history from its stream. */
@ApiTags('scorers')
@Controller('v1/scorers')
export class ScorerQueriesController {
  constructor(
    private readonly scorers: ScorersReadModel,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @ApiOperation({ summary: 'List scorers' })
  @ApiResponse({ status: 200, type: ScorerListSchema })
  @ApiProblems(400)
  @Get()
  list(@Query() { limit, cursor, status }: ScorerListQuery) {
    const page = this.scorers.list(
      decodeCursor(cursor, (id) => isId('scorer', id)),
      limit,
      status,
    );
    return { scorers: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a scorer' })
  @ApiResponse({ status: 200, type: ScorerSchema })
  @ApiProblems(404)
  @Get(':scorerId')
  get(@IdParam('scorerId', 'scorer') scorerId: string) {
    return this.existing(scorerId);
  }

  /** A bad query is a 400 before an unknown scorer is a 404. */
  @ApiOperation({ summary: 'The events of a scorer, oldest first' })
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiProblems(404)
  @Get(':scorerId/events')
  events(@IdParam('scorerId', 'scorer') scorerId: string, @Query() raw: RawQuery) {
    const query = parseHistoryQuery(raw);
    this.existing(scorerId);
    return readStreamPage(this.store, scorerStream(scorerId), query);
  }

  private existing(scorerId: string) {
    const scorer = this.scorers.get(scorerId);
    if (!scorer) throw new DomainError('not_found', `Scorer ${scorerId} does not exist`);
    return scorer;
  }
}
