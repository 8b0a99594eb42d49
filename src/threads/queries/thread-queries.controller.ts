import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../http/id.pipe';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { ListQuery } from '../../http/paging';
import { ThreadListSchema, ThreadMessagePageSchema, ThreadSchema } from '../thread.schema';
import { ThreadListQuery } from './thread-list.query-params';
import { GetThreadQuery, ListThreadMessagesQuery, ListThreadsQuery } from './thread.queries';

@ApiTags('threads')
@Controller('v1/threads')
export class ThreadQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'List threads' })
  @ApiResponse({ status: 200, type: ThreadListSchema })
  @Get()
  async list(@Query() { agentId, limit, cursor }: ThreadListQuery) {
    const page = await this.queries.execute(new ListThreadsQuery(agentId, limit, cursor));
    return { threads: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a thread' })
  @ApiResponse({ status: 200, type: ThreadSchema })
  @ApiProblems(404)
  @Get(':threadId')
  get(@IdParam('threadId', 'thread') threadId: string) {
    return this.queries.execute(new GetThreadQuery(threadId));
  }

  @ApiOperation({ summary: "A thread's messages, oldest first" })
  @ApiResponse({ status: 200, type: ThreadMessagePageSchema })
  @ApiProblems(404)
  @Get(':threadId/messages')
  messages(@IdParam('threadId', 'thread') threadId: string, @Query() { limit, cursor }: ListQuery) {
    return this.queries.execute(new ListThreadMessagesQuery(threadId, limit, cursor));
  }
}
