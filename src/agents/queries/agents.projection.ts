import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { Projection } from '../../read-models/projection';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { AGENT_EVENT_TYPES, AgentEvent, agentDecider } from '../agent';
import { AGENT_RUN_EVENT_TYPES, AgentRunEvent, agentRunDecider } from '../agent-run';
import { AgentsReadModel } from './agents.read-model';

/** Keeps `agents` and `agent_runs` in step with the log, reusing each aggregate's own `evolve`. */
@Injectable()
export class AgentsProjection implements Projection, OnModuleInit {
  readonly name = 'agents';
  readonly eventTypes = [...AGENT_EVENT_TYPES, ...AGENT_RUN_EVENT_TYPES];

  constructor(
    private readonly readModel: AgentsReadModel,
    private readonly runner: ProjectionRunner,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
  }

  apply(event: RecordedEvent): void {
    if (event.type === 'AgentCreated' || event.type === 'AgentUpdated' || event.type === 'AgentArchived') {
      const before = event.type === 'AgentCreated' ? null : (this.readModel.get(event.data.agentId as string) ?? null);
      const agent = agentDecider.evolve(before, event as unknown as AgentEvent);
      if (agent) this.readModel.saveAgent(agent);
    } else if (event.type.startsWith('AgentRun')) {
      const runId = event.type === 'AgentRunQueued' ? (event.data.id as string) : (event.data.runId as string);
      const before = this.readModel.getRunAggregate(runId) ?? null;
      if (before && event.type === 'AgentRunQueued') return;
      if (event.type === 'AgentRunQueued')
        this.readModel.setLastRun(event.data.agentId as string, event.data.createdAt as string);
      const after = agentRunDecider.evolve(before, event as unknown as AgentRunEvent);
      if (after && after !== before) this.readModel.saveRun(after);
    }
  }
}
