import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { ListQuery, RunListQuery } from '../../http/paging';
import { GetAgentQuery, GetAgentRunQuery, ListAgentRunsQuery, ListAgentsQuery } from './agent.queries';

@Controller('v1/agents')
export class AgentQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Query() { limit, cursor }: ListQuery) {
    const page = await this.queries.execute(new ListAgentsQuery(limit, cursor));
    return { agents: page.items, nextCursor: page.nextCursor };
  }

  @Get(':agentId')
  get(@Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string) {
    return this.queries.execute(new GetAgentQuery(agentId));
  }

  @Get(':agentId/runs')
  async listRuns(
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Query() { status, limit, cursor }: RunListQuery,
  ) {
    const page = await this.queries.execute(new ListAgentRunsQuery(agentId, status, limit, cursor));
    return { runs: page.items, nextCursor: page.nextCursor };
  }

  @Get(':agentId/runs/:runId')
  getRun(
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Param('runId', new ParseIdPipe('agentrun', 'runId')) runId: string,
  ) {
    return this.queries.execute(new GetAgentRunQuery(agentId, runId));
  }
}
