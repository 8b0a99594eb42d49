import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { EXPERIMENT_EVENT_TYPES, ExperimentEvent } from '../experiment';
import { createdView } from '../experiment-view';
import { ExperimentsReadModel } from './experiments.read-model';

/** Keeps `experiments` (each as the API shows it) and each scored item's result in step with the log. */
@Injectable()
export class ExperimentsProjection extends ReadModelProjection {
  readonly name = 'experiments';
  readonly eventTypes = EXPERIMENT_EVENT_TYPES;

  constructor(
    private readonly readModel: ExperimentsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as ExperimentEvent;
    if (event.type === 'ExperimentCreated') {
      const { createdAt, ...plan } = event.data;
      // Experiments created before overrides have none.
      const target = { ...plan.target, overrides: plan.target.overrides ?? null };
      return this.readModel.put(createdView({ ...plan, target }, createdAt));
    }
    const view = this.readModel.get(event.data.experimentId);
    if (!view) return;
    const { progress } = view;
    switch (event.type) {
      case 'ExperimentItemsStarted': {
        const started = progress.started + event.data.items.length;
        return this.readModel.put({ ...view, status: 'running', progress: { ...progress, started } });
      }
      case 'ExperimentItemScored': {
        const { experimentId, at, ...result } = event.data;
        this.readModel.addResult(experimentId, { ...result, scoredAt: at });
        return this.readModel.put({ ...view, progress: { ...progress, scored: progress.scored + 1 } });
      }
      case 'ExperimentCompleted': {
        const { completedAt } = event.data;
        // Summaries recorded before model calls and recorded tool results were counted have neither.
        const summary = { ...event.data.summary, modelCalls: event.data.summary.modelCalls ?? 0 };
        summary.recorded ??= null;
        return this.readModel.put({ ...view, status: 'succeeded', summary, passed: summary.passed, completedAt });
      }
    }
  }
}
