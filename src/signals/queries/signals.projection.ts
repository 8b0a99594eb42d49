import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import {
  WORKFLOW_RUN_ENDINGS,
  WorkflowSignalAwaited,
  WorkflowStepEnded,
} from '../../workflows/workflow-run/workflow-run.events';
import { SignalSent } from '../signal';
import { SignalsReadModel } from './signals.read-model';

/**
 * Keeps the signals, the steps that wait for one, and which signal reached which step, in the order of the log.
 */
@Injectable()
export class SignalsProjection extends ReadModelProjection {
  readonly name = 'signals';
  readonly eventTypes = ['SignalSent', 'WorkflowSignalAwaited', 'WorkflowStepEnded', ...WORKFLOW_RUN_ENDINGS];

  constructor(
    private readonly readModel: SignalsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'SignalSent':
        return this.readModel.sent((event as unknown as SignalSent).data);
      case 'WorkflowSignalAwaited': {
        const { runId, index, stepId, signal, key, awaitedAt } = event.data as WorkflowSignalAwaited['data'];
        return this.readModel.awaited({ runId, stepIndex: index, stepId, name: signal, key, awaitedAt });
      }
      case 'WorkflowStepEnded': {
        const { runId, index } = event.data as WorkflowStepEnded['data'];
        return this.readModel.stepEnded(runId, index);
      }
      default:
        return this.readModel.stepEnded(event.data.runId as string);
    }
  }
}
