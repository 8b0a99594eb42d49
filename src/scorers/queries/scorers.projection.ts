import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { SCORER_EVENT_TYPES, ScorerEvent, scorerDecider } from '../scorer';
import { ScorersReadModel } from './scorers.read-model';

/** Keeps `scorers` in step with the log: each scorer as its events leave it. */
@Injectable()
export class ScorersProjection extends ReadModelProjection {
  readonly name = 'scorers';
  readonly eventTypes = SCORER_EVENT_TYPES;

  constructor(
    private readonly readModel: ScorersReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as ScorerEvent;
    const before = event.type === 'ScorerCreated' ? null : (this.readModel.get(event.data.scorerId) ?? null);
    const after = scorerDecider.evolve(before, event);
    if (after) this.readModel.put(after);
  }
}
