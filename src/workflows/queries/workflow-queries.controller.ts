import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { etagOf } from '../../http/etag';
import { ParseIdPipe } from '../../http/id.pipe';
import { RunListQuery } from '../../http/paging';
import { WorkflowView } from '../workflow-view';
import { WorkflowListQuery } from './workflow-list.query-params';
import { GetWorkflowQuery, GetWorkflowRunQuery, ListWorkflowRunsQuery, ListWorkflowsQuery } from './workflow.queries';

@Controller('v1/workflows')
export class WorkflowQueriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Query() { status, name, limit, cursor }: WorkflowListQuery) {
    const page = await this.queries.execute(new ListWorkflowsQuery({ status, name }, limit, cursor));
    return { workflows: page.items, nextCursor: page.nextCursor };
  }

  @Get(':workflowId')
  async get(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowView> {
    const workflow = await this.queries.execute(new GetWorkflowQuery(workflowId));
    void reply.header('ETag', etagOf(workflow.version));
    return workflow;
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
