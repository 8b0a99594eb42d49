import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { stateAtVersion } from '../../actors/state-at-version';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { Agent, agentDecider, agentStream } from '../agent';

/** An agent as it was at `version`. */
export class GetAgentVersionQuery extends Query<Agent> {
  constructor(
    readonly agentId: string,
    readonly version: number,
  ) {
    super();
  }
}

/** Folds the agent's events up to the version asked for. */
@QueryHandler(GetAgentVersionQuery)
export class GetAgentVersionHandler implements IQueryHandler<GetAgentVersionQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ agentId, version }: GetAgentVersionQuery): Promise<Agent> {
    return stateAtVersion(this.store, agentStream(agentId), agentDecider, version, `Agent ${agentId}`);
  }
}
