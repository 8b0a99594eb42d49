import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import { WORKFLOW_RUN_ENDINGS, WorkflowApprovalRequested, WorkflowRunEvent } from '../workflow-run/workflow-run.events';
import { StepTimersReadModel } from './step-timers.read-model';

/** Keeps the timers of waiting steps in step with the log: set as a step begins to wait, gone when it ends. */
@Injectable()
export class StepTimersProjection extends ReadModelProjection {
  readonly name = 'workflow-step-timers';
  readonly eventTypes = [
    'WorkflowStepSleeping',
    'WorkflowSignalAwaited',
    'WorkflowApprovalRequested',
    'WorkflowStepEnded',
    ...WORKFLOW_RUN_ENDINGS,
  ];

  constructor(
    private readonly timers: StepTimersReadModel,
    runner: ProjectionRunner,
  ) {
    super(timers, runner);
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as unknown as WorkflowRunEvent;
    switch (event.type) {
      case 'WorkflowStepSleeping': {
        const { runId, index, until } = event.data;
        return this.timers.set({ runId, stepIndex: index, kind: 'wake', dueAt: until });
      }
      case 'WorkflowSignalAwaited': {
        const { runId, index, timeoutAt } = event.data;
        if (timeoutAt) this.timers.set({ runId, stepIndex: index, kind: 'wait_timeout', dueAt: timeoutAt });
        return;
      }
      case 'WorkflowApprovalRequested':
        return this.approvalRequested(event.data);
      case 'WorkflowStepEnded':
        return this.timers.clear(event.data.runId, event.data.index);
      default:
        return this.timers.clear((event.data as { runId: string }).runId);
    }
  }

  private approvalRequested({ runId, index, timeoutMs, requestedAt }: WorkflowApprovalRequested['data']): void {
    if (timeoutMs === undefined) return;
    const dueAt = new Date(Date.parse(requestedAt) + timeoutMs).toISOString();
    this.timers.set({ runId, stepIndex: index, kind: 'approval_timeout', dueAt });
  }
}
