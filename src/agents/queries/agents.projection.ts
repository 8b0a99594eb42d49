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

  applyBatch(events: RecordedEvent[]): void {
    this.readModel.batch(() => {
      for (const event of events) this.apply(event);
    });
  }

  apply(event: RecordedEvent): void {
    if (event.type === 'AgentCreated' || event.type === 'AgentUpdated' || event.type === 'AgentArchived') {
      const before = event.type === 'AgentCreated' ? null : (this.readModel.get(event.data.agentId as string) ?? null);
      const agent = agentDecider.evolve(before, event as unknown as AgentEvent);
      if (agent) this.readModel.saveAgent(agent);
    } else if (event.type === 'AgentRunQueued') {
      // A run is queued once: a repeat of the event changes nothing.
      const run = agentRunDecider.evolve(null, event as unknown as AgentRunEvent)!;
      if (this.readModel.insertRun(run)) this.readModel.setLastRun(run.agentId, run.createdAt);
    } else if (event.type.startsWith('AgentRun')) {
      const before = this.readModel.getRunAggregate(event.data.runId as string) ?? null;
      const after = agentRunDecider.evolve(before, event as unknown as AgentRunEvent);
      if (after && after !== before) this.readModel.saveRun(after);
    }
  }
}
