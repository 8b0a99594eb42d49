import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../../http/openapi/problem.schema';
import { WorkflowListSchema, WorkflowRunListSchema, WorkflowRunSchema, WorkflowSchema } from '../workflow.schema';
import { QueryBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { ListQuery, RunListQuery } from '../../http/paging';
import { GetWorkflowQuery, GetWorkflowRunQuery, ListWorkflowRunsQuery, ListWorkflowsQuery } from './workflow.queries';

@ApiTags('workflows')
@Controller('v1/workflows')
export class WorkflowQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @ApiOperation({ summary: 'List workflows' })
  @ApiResponse({ status: 200, type: WorkflowListSchema })
  @Get()
  async list(@Query() { limit, cursor }: ListQuery) {
    const page = await this.queries.execute(new ListWorkflowsQuery(limit, cursor));
    return { workflows: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a workflow' })
  @ApiResponse({ status: 200, type: WorkflowSchema })
  @ApiProblems(404)
  @Get(':workflowId')
  get(@Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string) {
    return this.queries.execute(new GetWorkflowQuery(workflowId));
  }

  @ApiOperation({ summary: "List a workflow's runs" })
  @ApiResponse({ status: 200, type: WorkflowRunListSchema })
  @ApiProblems(404)
  @Get(':workflowId/runs')
  async listRuns(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Query() { status, limit, cursor }: RunListQuery,
  ) {
    const page = await this.queries.execute(new ListWorkflowRunsQuery(workflowId, status, limit, cursor));
    return { runs: page.items, nextCursor: page.nextCursor };
  }

  @ApiOperation({ summary: 'Get a workflow run' })
  @ApiResponse({ status: 200, type: WorkflowRunSchema })
  @ApiProblems(404)
  @Get(':workflowId/runs/:runId')
  getRun(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Param('runId', new ParseIdPipe('wfrun', 'runId')) runId: string,
  ) {
    return this.queries.execute(new GetWorkflowRunQuery(workflowId, runId));
  }
}
