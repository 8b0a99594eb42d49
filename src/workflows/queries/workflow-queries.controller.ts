import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ParseIdPipe } from '../../http/id.pipe';
import { ListQuery, RunListQuery } from '../../http/paging';
import { GetWorkflowQuery, GetWorkflowRunQuery, ListWorkflowRunsQuery, ListWorkflowsQuery } from './workflow.queries';

@Controller('v1/workflows')
export class WorkflowQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Query() { limit, cursor }: ListQuery) {
    const page = await this.queries.execute(new ListWorkflowsQuery(limit, cursor));
    return { workflows: page.items, nextCursor: page.nextCursor };
  }

  @Get(':workflowId')
  get(@Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string) {
    return this.queries.execute(new GetWorkflowQuery(workflowId));
  }

  @Get(':workflowId/runs')
  async listRuns(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Query() { status, limit, cursor }: RunListQuery,
  ) {
    const page = await this.queries.execute(new ListWorkflowRunsQuery(workflowId, status, limit, cursor));
    return { runs: page.items, nextCursor: page.nextCursor };
  }

  @Get(':workflowId/runs/:runId')
  getRun(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Param('runId', new ParseIdPipe('wfrun', 'runId')) runId: string,
  ) {
    return this.queries.execute(new GetWorkflowRunQuery(workflowId, runId));
  }
}
