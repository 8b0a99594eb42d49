import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { AGENT_EVENT_TYPES, AgentEvent, agentDecider } from '../agent';
import { AGENT_RUN_EVENT_TYPES, AgentRunEvent, agentRunStream } from '../agent-run/agent-run.events';
import { AgentRunAggregate } from '../agent-run/agent-run.state';
import { agentRunDecider } from '../agent-run/agent-run';
import { AgentsReadModel } from './agents.read-model';
import { StoredAgentRun } from './agent-tables';

/**
 * Keeps `agents` and `agent_runs` in step with the log, reusing each aggregate's own `evolve`; the runs of a
 * forgotten subject keep their ids, statuses and usage, their content forgotten.
 */
@Injectable()
export class AgentsProjection extends ReadModelProjection {
  readonly name = 'agents';
  readonly eventTypes = [...AGENT_EVENT_TYPES, ...AGENT_RUN_EVENT_TYPES, 'SubjectForgotten'];

  constructor(
    private readonly readModel: AgentsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
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
    } else if (event.type === 'SubjectForgotten') {
      for (const stream of (event.data as { streams: string[] }).streams) {
        const runs = agentRunStream('');
        if (stream.startsWith(runs)) this.readModel.forgetRun(stream.slice(runs.length));
      }
    } else if (event.type.startsWith('AgentRun')) {
      // The read model keeps the run without its context, which only AgentRunQueued sets: evolve keeps the rest.
      const before = this.readModel.getRunAggregate(event.data.runId as string) ?? null;
      const after = agentRunDecider.evolve(before as AgentRunAggregate | null, event as unknown as AgentRunEvent);
      if (after && after !== (before as unknown)) this.readModel.saveRun(after as unknown as StoredAgentRun);
    }
  }
}
