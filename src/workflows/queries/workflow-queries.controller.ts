import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { WorkflowListSchema, WorkflowSchema } from '../workflow.schema';
import { WorkflowRunListSchema, WorkflowRunSchema } from '../workflow-run.schema';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { withEtag } from '../../http/etag';
import { IdParam } from '../../http/id.pipe';
import { RunListQuery } from '../../http/paging';
import { ETAG } from '../../http/openapi/fields';
import { WorkflowView } from '../workflow-view';
import { WorkflowListQuery } from './workflow-list.query-params';
import { GetWorkflowVersionQuery } from './workflow-version.queries';
import { VersionQuery } from '../../http/version.query-params';
import { GetWorkflowQuery, GetWorkflowRunQuery, ListWorkflowRunsQuery, ListWorkflowsQuery } from './workflow.queries';

@ApiTags('workflows')
@Controller('v1/workflows')
export class WorkflowQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'List workflows' })
  @ApiResponse({ status: 200, type: WorkflowListSchema })
  @Get()
  async list(@Query() { status, name, limit, cursor }: WorkflowListQuery) {
    const page = await this.queries.execute(new ListWorkflowsQuery({ status, name }, limit, cursor));
    return { workflows: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a workflow' })
  @ApiResponse({
    status: 200,
    type: WorkflowSchema,
    headers: { ETag: { description: 'The version, quoted: send it as If-Match', schema: ETAG } },
  })
  @ApiProblems(404)
  @Get(':workflowId')
  async get(
    @IdParam('workflowId', 'wf') workflowId: string,
    @Query() { version }: VersionQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const query =
      version === undefined ? new GetWorkflowQuery(workflowId) : new GetWorkflowVersionQuery(workflowId, version);
    return withEtag(reply, await this.queries.execute(query));
  }

  @ApiOperation({ summary: "List a workflow's runs" })
  @ApiResponse({ status: 200, type: WorkflowRunListSchema })
  @ApiProblems(404)
  @Get(':workflowId/runs')
  async listRuns(
    @IdParam('workflowId', 'wf') workflowId: string,
    @Query() { status, limit, cursor, order }: RunListQuery,
  ) {
    const page = await this.queries.execute(new ListWorkflowRunsQuery(workflowId, status, limit, cursor, order));
    return { runs: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a workflow run' })
  @ApiResponse({ status: 200, type: WorkflowRunSchema })
  @ApiProblems(404)
  @Get(':workflowId/runs/:runId')
  getRun(@IdParam('workflowId', 'wf') workflowId: string, @IdParam('runId', 'wfrun') runId: string) {
    return this.queries.execute(new GetWorkflowRunQuery(workflowId, runId));
  }
}
