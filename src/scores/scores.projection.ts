import { Injectable } from '@nestjs/common';
import { AgentRunScored } from '../agents/agent-run/agent-run.events';
import { RecordedEvent } from '../event-store/event-store';
import { ProjectionRunner } from '../read-models/projection-runner';
import { ReadModelProjection } from '../read-models/read-model-projection';
import { ScoresReadModel } from './scores.read-model';

/** Adds each live score of a run to its agent's, scorer's and day's sums. */
@Injectable()
export class ScoresProjection extends ReadModelProjection {
  readonly name = 'scores';
  readonly eventTypes = ['AgentRunScored'];

  constructor(
    private readonly readModel: ScoresReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    // Following the log, the runner hands every projection every event.
    if (event.type !== 'AgentRunScored') return;
    const { agentId, scores } = event.data as AgentRunScored['data'];
    for (const { scorer, score, at } of scores) this.readModel.scored(agentId, scorer, at, score);
  }
}
