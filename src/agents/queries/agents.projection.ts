import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { Projection } from '../../read-models/projection';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { AgentEvent, agentDecider } from '../agent';
import { AgentRunEvent, agentRunDecider } from '../agent-run';
import { AgentsReadModel } from './agents.read-model';

/** Keeps `agents` and `agent_runs` in step with the log, reusing each aggregate's own `evolve`. */
@Injectable()
export class AgentsProjection implements Projection, OnModuleInit {
  readonly name = 'agents';

  constructor(
    private readonly readModel: AgentsReadModel,
    private readonly runner: ProjectionRunner,
  ) {}

  onModuleInit(): void {
    this.runner.register(this);
  }

  apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'AgentCreated': {
        const agent = agentDecider.evolve(null, event as unknown as AgentEvent);
        if (agent) this.readModel.saveAgent(agent);
        break;
      }
      case 'AgentRunQueued': {
        const run = agentRunDecider.evolve(null, event as unknown as AgentRunEvent);
        if (run) this.readModel.saveRun(run);
        break;
      }
    }
  }
}
