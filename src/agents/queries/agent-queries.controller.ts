import { GetAgentVersionQuery } from './agent-version.queries';
import { VersionQuery } from '../../http/version.query-params';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { AgentListSchema, AgentSchema } from '../agent.schema';
import { AgentRunListSchema, AgentRunSchema } from '../agent-run.schema';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { RunListQuery } from '../../http/paging';
import { ETAG } from '../../http/openapi/fields';
import { Agent } from '../agent';
import { AgentListQuery, AgentRunQuery } from './agent-list.query-params';
import { GetAgentQuery, GetAgentRunQuery, ListAgentRunsQuery, ListAgentsQuery } from './agent.queries';

@ApiTags('agents')
@Controller('v1/agents')
export class AgentQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'List agents' })
  @ApiResponse({ status: 200, type: AgentListSchema })
  @Get()
  async list(@Query() { status, name, limit, cursor }: AgentListQuery) {
    const page = await this.queries.execute(new ListAgentsQuery({ status, name }, limit, cursor));
    return { agents: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get an agent' })
  @ApiResponse({
    status: 200,
    type: AgentSchema,
    headers: { ETag: { description: 'The version, quoted: send it as If-Match', schema: ETAG } },
  })
  @ApiProblems(404)
  @Get(':agentId')
  async get(
    @IdParam('agentId', 'agent') agentId: string,
    @Query() { version }: VersionQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Agent> {
    const query = version === undefined ? new GetAgentQuery(agentId) : new GetAgentVersionQuery(agentId, version);
    return withEtag(reply, await this.queries.execute(query));
  }

  @ApiOperation({ summary: "List an agent's runs" })
  @ApiResponse({ status: 200, type: AgentRunListSchema })
  @ApiProblems(404)
  @Get(':agentId/runs')
  async listRuns(
    @IdParam('agentId', 'agent') agentId: string,
    @Query() { status, limit, cursor, order }: RunListQuery,
  ) {
    const page = await this.queries.execute(new ListAgentRunsQuery(agentId, status, limit, cursor, order));
    return { runs: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get an agent run' })
  @ApiResponse({ status: 200, type: AgentRunSchema })
  @ApiProblems(404)
  @Get(':agentId/runs/:runId')
  getRun(
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Query() { include }: AgentRunQuery,
  ) {
    return this.queries.execute(new GetAgentRunQuery(agentId, runId, include === 'tree'));
  }
}
