import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../http/openapi/problem.schema';
import { ApiEventPaging, EventPageSchema } from './event.schema';
import { agentStream } from '../agents/agent';
import { agentRunStream } from '../agents/agent-run';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { DomainError } from '../domain/decider';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { ParseIdPipe } from '../http/id.pipe';
import { workflowStream } from '../workflows/workflow';
import { workflowRunStream } from '../workflows/workflow-run';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { EventPage, readStreamPage } from './event-pages';
import { HistoryQuery, RawQuery, parseHistoryQuery } from './event-query';

/** The events of one agent, workflow or run: its own stream, oldest first, in pages. */
@ApiTags('events')
@Controller('v1')
export class ResourceHistoryController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly agents: AgentsReadModel,
    private readonly workflows: WorkflowsReadModel,
  ) {}

  @ApiOperation({ summary: 'The events of an agent, oldest first' })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiProblems(404)
  @Get('agents/:agentId/events')
  agentEvents(@Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string, @Query() raw: RawQuery) {
    const query = parseHistoryQuery(raw);
    if (!this.agents.get(agentId)) notFound(`Agent ${agentId} does not exist`);
    return this.page(agentStream(agentId), query);
  }

  @ApiOperation({ summary: 'The events of an agent run, oldest first' })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiProblems(404)
  @Get('agents/:agentId/runs/:runId/events')
  agentRunEvents(
    @Param('agentId', new ParseIdPipe('agent', 'agentId')) agentId: string,
    @Param('runId', new ParseIdPipe('agentrun', 'runId')) runId: string,
    @Query() raw: RawQuery,
  ) {
    const query = parseHistoryQuery(raw);
    if (!this.agents.getRun(agentId, runId)) notFound(`Agent run ${runId} of agent ${agentId} does not exist`);
    return this.page(agentRunStream(runId), query);
  }

  @ApiOperation({ summary: 'The events of a workflow, oldest first' })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiProblems(404)
  @Get('workflows/:workflowId/events')
  workflowEvents(@Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string, @Query() raw: RawQuery) {
    const query = parseHistoryQuery(raw);
    if (!this.workflows.get(workflowId)) notFound(`Workflow ${workflowId} does not exist`);
    return this.page(workflowStream(workflowId), query);
  }

  @ApiOperation({ summary: 'The events of a workflow run, oldest first' })
  @ApiEventPaging('A revision in the stream: the events after it.')
  @ApiResponse({ status: 200, type: EventPageSchema })
  @ApiProblems(404)
  @Get('workflows/:workflowId/runs/:runId/events')
  workflowRunEvents(
    @Param('workflowId', new ParseIdPipe('wf', 'workflowId')) workflowId: string,
    @Param('runId', new ParseIdPipe('wfrun', 'runId')) runId: string,
    @Query() raw: RawQuery,
  ) {
    const query = parseHistoryQuery(raw);
    if (!this.workflows.getRun(workflowId, runId)) {
      notFound(`Workflow run ${runId} of workflow ${workflowId} does not exist`);
    }
    return this.page(workflowRunStream(runId), query);
  }

  private page(stream: string, query: HistoryQuery): Promise<EventPage> {
    return readStreamPage(this.store, stream, query);
  }
}

function notFound(message: string): never {
  throw new DomainError('not_found', message);
}
