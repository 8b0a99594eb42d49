import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { RunOrder, RunStatus } from '../../domain/run';
import { Page, decodeCursor } from '../../read-models/page';
import { DefinitionListFilter } from '../../read-models/definition-list-filter';
import { Clock } from '../../shared/clock';
import { isId } from '../../shared/ids';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { WorkflowSummary, WorkflowView, workflowSummary, workflowView } from '../workflow-view';
import { WorkflowsReadModel } from './workflows.read-model';
import { AgentDirectory } from '../../agents/agent-directory.port';

export class ListWorkflowsQuery extends Query<Page<WorkflowSummary>> {
  constructor(
    readonly filter: DefinitionListFilter,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class GetWorkflowQuery extends Query<WorkflowView> {
  constructor(readonly workflowId: string) {
    super();
  }
}

export class ListWorkflowRunsQuery extends Query<Page<WorkflowRun>> {
  constructor(
    readonly workflowId: string,
    readonly status: RunStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
    readonly order: RunOrder = 'asc',
  ) {
    super();
  }
}

export class GetWorkflowRunQuery extends Query<WorkflowRun> {
  constructor(
    readonly workflowId: string,
    readonly runId: string,
  ) {
    super();
  }
}

@QueryHandler(ListWorkflowsQuery)
export class ListWorkflowsHandler implements IQueryHandler<ListWorkflowsQuery> {
  constructor(
    private readonly readModel: WorkflowsReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ filter, limit, cursor }: ListWorkflowsQuery): Promise<Page<WorkflowSummary>> {
    const page = this.readModel.list(
      filter,
      decodeCursor(cursor, (id) => isId('wf', id)),
      limit,
    );
    const now = this.clock.now();
    return {
      ...page,
      items: page.items.map((workflow) => workflowSummary(workflow, now, this.readModel.latestRun(workflow.id))),
    };
  }
}

@QueryHandler(GetWorkflowQuery)
export class GetWorkflowHandler implements IQueryHandler<GetWorkflowQuery> {
  constructor(
    private readonly readModel: WorkflowsReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ workflowId }: GetWorkflowQuery): Promise<WorkflowView> {
    const workflow = this.readModel.get(workflowId) ?? notFound(`Workflow ${workflowId} does not exist`);
    return workflowView(workflow, this.clock.now(), this.readModel.latestRun(workflowId));
  }
}

@QueryHandler(ListWorkflowRunsQuery)
export class ListWorkflowRunsHandler implements IQueryHandler<ListWorkflowRunsQuery> {
  constructor(
    private readonly readModel: WorkflowsReadModel,
    private readonly agents: AgentDirectory,
  ) {}

  async execute({ workflowId, status, limit, cursor, order }: ListWorkflowRunsQuery) {
    if (!this.readModel.get(workflowId)) notFound(`Workflow ${workflowId} does not exist`);
    const page = this.readModel.listRuns(
      workflowId,
      status,
      decodeCursor(cursor, (id) => isId('wfrun', id)),
      limit,
      order,
    );
    return { ...page, items: page.items.map((run) => withWaitingStep(run, this.agents)) };
  }
}

@QueryHandler(GetWorkflowRunQuery)
export class GetWorkflowRunHandler implements IQueryHandler<GetWorkflowRunQuery> {
  constructor(
    private readonly readModel: WorkflowsReadModel,
    private readonly agents: AgentDirectory,
  ) {}

  async execute({ workflowId, runId }: GetWorkflowRunQuery) {
    const run = this.readModel.getRun(workflowId, runId);
    return run
      ? withWaitingStep(run, this.agents)
      : notFound(`Workflow run ${runId} of workflow ${workflowId} does not exist`);
  }
}

/** A running workflow run whose current step's agent run waits for a person shows `waiting` too, as that step. */
function withWaitingStep(run: WorkflowRun, agents: AgentDirectory): WorkflowRun {
  if (run.status !== 'running') return run;
  const step = run.steps.find((s) => s.status === 'running');
  if (!step?.agentRunId || agents.runStatus(step.agentRunId) !== 'waiting') return run;
  const steps = run.steps.map((s) => (s === step ? { ...s, status: 'waiting' as const } : s));
  return { ...run, status: 'waiting', steps };
}

function notFound(message: string): never {
  throw new DomainError('not_found', message);
}
