import { Injectable } from '@nestjs/common';
import { AGENT_RUN_ENDINGS, AgentRunSucceeded } from '../agents/agent-run/agent-run.events';
import { RecordedEvent } from '../event-store/event-store';
import { ProjectionRunner } from '../read-models/projection-runner';
import { ReadModelProjection } from '../read-models/read-model-projection';
import { UsageReadModel } from './usage.read-model';

/** Sums each ended agent run into its hour, agent and model. Endings recorded before they named both count as `unknown`. */
@Injectable()
export class UsageProjection extends ReadModelProjection {
  readonly name = 'usage';
  readonly eventTypes = AGENT_RUN_ENDINGS;

  constructor(
    private readonly readModel: UsageReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    // Following the log, the runner hands every projection every event.
    if (!(AGENT_RUN_ENDINGS as readonly string[]).includes(event.type)) return;
    const { agentId, model, endedAt, usage } = event.data as AgentRunSucceeded['data'];
    this.readModel.runEnded({ agentId: agentId ?? 'unknown', model: model ?? 'unknown', endedAt, usage });
  }
}
