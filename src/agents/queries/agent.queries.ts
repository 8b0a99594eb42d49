import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../domain/decider';
import { RunOrder, RunStatus } from '../../domain/run';
import { Page, decodeCursor } from '../../read-models/page';
import { DefinitionListFilter } from '../../read-models/definition-list-filter';
import { isId } from '../../shared/ids';
import { Agent } from '../agent';
import { AgentRun } from '../agent-run/agent-run.state';
import { AgentSummary, AgentsReadModel } from './agents.read-model';

export class ListAgentsQuery extends Query<Page<AgentSummary>> {
  constructor(
    readonly filter: DefinitionListFilter,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}

export class GetAgentQuery extends Query<Agent> {
  constructor(readonly agentId: string) {
    super();
  }
}

export class ListAgentRunsQuery extends Query<Page<AgentRun>> {
  constructor(
    readonly agentId: string,
    readonly status: RunStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
    readonly order: RunOrder = 'asc',
  ) {
    super();
  }
}

export class GetAgentRunQuery extends Query<AgentRun> {
  constructor(
    readonly agentId: string,
    readonly runId: string,
    /** With the run's whole tree of runs. */
    readonly tree = false,
  ) {
    super();
  }
}

@QueryHandler(ListAgentsQuery)
export class ListAgentsHandler implements IQueryHandler<ListAgentsQuery> {
  constructor(private readonly readModel: AgentsReadModel) {}

  async execute({ filter, limit, cursor }: ListAgentsQuery) {
    return this.readModel.list(
      filter,
      decodeCursor(cursor, (id) => isId('agent', id)),
      limit,
    );
  }
}

@QueryHandler(GetAgentQuery)
export class GetAgentHandler implements IQueryHandler<GetAgentQuery> {
  constructor(private readonly readModel: AgentsReadModel) {}

  async execute({ agentId }: GetAgentQuery) {
    return this.readModel.get(agentId) ?? notFound(`Agent ${agentId} does not exist`);
  }
}

@QueryHandler(ListAgentRunsQuery)
export class ListAgentRunsHandler implements IQueryHandler<ListAgentRunsQuery> {
  constructor(private readonly readModel: AgentsReadModel) {}

  async execute({ agentId, status, limit, cursor, order }: ListAgentRunsQuery) {
    if (!this.readModel.get(agentId)) notFound(`Agent ${agentId} does not exist`);
    return this.readModel.listRuns(
      agentId,
      status,
      decodeCursor(cursor, (id) => isId('agentrun', id)),
      limit,
      order,
    );
  }
}

@QueryHandler(GetAgentRunQuery)
export class GetAgentRunHandler implements IQueryHandler<GetAgentRunQuery> {
  constructor(private readonly readModel: AgentsReadModel) {}

  async execute({ agentId, runId, tree }: GetAgentRunQuery) {
    return (
      this.readModel.getRun(agentId, runId, tree) ?? notFound(`Agent run ${runId} of agent ${agentId} does not exist`)
    );
  }
}

function notFound(message: string): never {
  throw new DomainError('not_found', message);
}
