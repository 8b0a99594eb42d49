import { Controller, Get, Inject, Query, applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../http/openapi/problem.schema';
import { ApiEventPaging, EventPageSchema } from './event.schema';
import { agentStream } from '../agents/agent';
import { agentRunStream } from '../agents/agent-run/agent-run.events';
import { AgentsReadModel } from '../agents/queries/agents.read-model';
import { DomainError } from '../domain/decider';
import { EVENT_STORE, EventStore } from '../event-store/event-store';
import { IdParam } from '../http/id.pipe';
import { threadStream } from '../threads/thread';
import { ThreadsReadModel } from '../threads/queries/threads.read-model';
import { workflowStream } from '../workflows/workflow/workflow.events';
import { workflowRunStream } from '../workflows/workflow-run/workflow-run.events';
import { WorkflowsReadModel } from '../workflows/queries/workflows.read-model';
import { EventPage, readStreamPage } from './event-pages';
import { RawQuery, parseHistoryQuery } from './event-query';

/** What every history route answers, in the OpenAPI document (applied bottom-up, as stacked decorators are). */
function HistoryRoute(summary: string) {
  return applyDecorators(
    ApiProblems(404),
    ApiResponse({ status: 200, type: EventPageSchema }),
    ApiEventPaging('A revision in the stream: the events after it.'),
    ApiOperation({ summary }),
  );
}

/** The events of one agent, workflow or run: its own stream, oldest first, in pages. */
@ApiTags('events')
@Controller('v1')
export class ResourceHistoryController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly agents: AgentsReadModel,
    private readonly workflows: WorkflowsReadModel,
    private readonly threads: ThreadsReadModel,
  ) {}

  @HistoryRoute('The events of an agent, oldest first')
  @Get('agents/:agentId/events')
  agentEvents(@IdParam('agentId', 'agent') agentId: string, @Query() raw: RawQuery) {
    return this.history(raw, agentStream(agentId), () => this.agents.get(agentId), `Agent ${agentId}`);
  }

  @HistoryRoute('The events of an agent run, oldest first')
  @Get('agents/:agentId/runs/:runId/events')
  agentRunEvents(
    @IdParam('agentId', 'agent') agentId: string,
    @IdParam('runId', 'agentrun') runId: string,
    @Query() raw: RawQuery,
  ) {
    const exists = () => this.agents.getRun(agentId, runId);
    return this.history(raw, agentRunStream(runId), exists, `Agent run ${runId} of agent ${agentId}`);
  }

  @HistoryRoute('The events of a workflow, oldest first')
  @Get('workflows/:workflowId/events')
  workflowEvents(@IdParam('workflowId', 'wf') workflowId: string, @Query() raw: RawQuery) {
    return this.history(
      raw,
      workflowStream(workflowId),
      () => this.workflows.get(workflowId),
      `Workflow ${workflowId}`,
    );
  }

  @HistoryRoute('The events of a workflow run, oldest first')
  @Get('workflows/:workflowId/runs/:runId/events')
  workflowRunEvents(
    @IdParam('workflowId', 'wf') workflowId: string,
    @IdParam('runId', 'wfrun') runId: string,
    @Query() raw: RawQuery,
  ) {
    const exists = () => this.workflows.getRun(workflowId, runId);
    return this.history(raw, workflowRunStream(runId), exists, `Workflow run ${runId} of workflow ${workflowId}`);
  }

  @HistoryRoute('The events of a thread, oldest first')
  @Get('threads/:threadId/events')
  threadEvents(@IdParam('threadId', 'thread') threadId: string, @Query() raw: RawQuery) {
    return this.history(raw, threadStream(threadId), () => this.threads.get(threadId), `Thread ${threadId}`);
  }

  /** A bad query is a 400 before an unknown resource is a 404. */
  private history(raw: RawQuery, stream: string, exists: () => unknown, what: string): Promise<EventPage> {
    const query = parseHistoryQuery(raw);
    if (!exists()) throw new DomainError('not_found', `${what} does not exist`);
    return readStreamPage(this.store, stream, query);
  }
}
