import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { checkAddress } from '../memory-address';
import { ApiKey, ApiNamespace } from '../memory-params';
import {
  MemoryHistorySchema,
  MemoryItemSchema,
  MemoryListSchema,
  MemoryNamespaceListSchema,
  MemorySearchSchema,
} from '../memory.schema';
import { MemoryItemQuery, MemoryListQuery, MemorySearchDto } from './memory-query.params';
import {
  GetMemoryQuery,
  ListMemoryQuery,
  ListNamespacesQuery,
  MemoryHistoryQuery,
  SearchMemoryQuery,
} from './memory.queries';
import { ListQuery } from '../../http/paging';

@ApiTags('memory')
@Controller('v1/memory')
export class MemoryQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'Search memory items by their words, their meaning or both, best first' })
  @ApiResponse({ status: 200, type: MemorySearchSchema })
  @ApiProblems(409, 502)
  @Post('search')
  @HttpCode(200)
  search(@Body() { namespace, query, limit = 10, filter = {}, mode }: MemorySearchDto) {
    return this.queries.execute(new SearchMemoryQuery(namespace, query, limit, filter, mode));
  }

  @ApiOperation({ summary: 'List the namespaces that hold items, by name' })
  @ApiResponse({ status: 200, type: MemoryNamespaceListSchema })
  @Get()
  namespaces(@Query() { limit, cursor }: ListQuery) {
    return this.queries.execute(new ListNamespacesQuery(limit, cursor));
  }

  @ApiOperation({ summary: "List a namespace's items, by key" })
  @ApiNamespace()
  @ApiResponse({ status: 200, type: MemoryListSchema })
  @Get(':namespace')
  list(@Param('namespace') namespace: string, @Query() { prefix = '', limit, cursor }: MemoryListQuery) {
    checkAddress(namespace);
    return this.queries.execute(new ListMemoryQuery(namespace, prefix, limit, cursor));
  }

  @ApiOperation({ summary: 'Get a memory item, now or as it was' })
  @ApiNamespace()
  @ApiKey()
  @ApiResponse({ status: 200, type: MemoryItemSchema })
  @ApiProblems(404)
  @Get(':namespace/:key')
  get(@Param('namespace') namespace: string, @Param('key') key: string, @Query() { asOf }: MemoryItemQuery) {
    checkAddress(namespace, key);
    return this.queries.execute(new GetMemoryQuery(namespace, key, asOf ? new Date(asOf) : undefined));
  }

  @ApiOperation({ summary: "A memory item's versions, oldest first: each put and each removal" })
  @ApiNamespace()
  @ApiKey()
  @ApiResponse({ status: 200, type: MemoryHistorySchema })
  @ApiProblems(404)
  @Get(':namespace/:key/history')
  history(@Param('namespace') namespace: string, @Param('key') key: string, @Query() { limit, cursor }: ListQuery) {
    checkAddress(namespace, key);
    return this.queries.execute(new MemoryHistoryQuery(namespace, key, limit, cursor));
  }
}
