import { Injectable } from '@nestjs/common';
import { RecordedEvent } from '../../event-store/event-store';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { ReadModelProjection } from '../../read-models/read-model-projection';
import {
  ScheduledRunsSkipped,
  WORKFLOW_EVENT_TYPES,
  WorkflowEvent,
  WorkflowPaused,
  WorkflowResumed,
  WorkflowTriggered,
} from '../workflow/workflow.events';
import { workflowDecider } from '../workflow/workflow';
import {
  WORKFLOW_RUN_EVENT_TYPES,
  WorkflowRunEvent,
  WorkflowRunQueued,
  workflowRunStream,
} from '../workflow-run/workflow-run.events';
import { WorkflowRunAggregate } from '../workflow-run/workflow-run.state';
import { queuedRunOf } from '../workflow-run/queued-run';
import { workflowRunDecider } from '../workflow-run/workflow-run';
import { WorkflowsReadModel } from './workflows.read-model';
import { StoredWorkflowRun } from './workflow-tables';

/** Every run's stream starts so. */
const RUN_STREAMS = workflowRunStream('');

/** Keeps `workflows` and `workflow_runs` in step with the log, reusing each aggregate's own `evolve`. */
@Injectable()
export class WorkflowsProjection extends ReadModelProjection {
  readonly name = 'workflows';
  readonly eventTypes = [...WORKFLOW_EVENT_TYPES, ...WORKFLOW_RUN_EVENT_TYPES];

  constructor(
    private readonly readModel: WorkflowsReadModel,
    runner: ProjectionRunner,
  ) {
    super(readModel, runner);
  }

  apply(event: RecordedEvent): void {
    switch (event.type) {
      case 'WorkflowCreated': {
        const workflow = workflowDecider.evolve(null, event as unknown as WorkflowEvent);
        if (workflow) this.readModel.saveWorkflow(workflow);
        break;
      }
      case 'WorkflowTriggered': {
        const triggered = event.data as WorkflowTriggered['data'];
        const { workflowId, triggeredAt, trigger } = triggered;
        this.readModel.setLastRun(workflowId, triggeredAt, trigger.type === 'schedule' ? trigger.scheduledFor : null);
        // The trigger alone makes the run: it is listed even before (or if never) its own stream is opened.
        const queued: WorkflowRunQueued = { type: 'WorkflowRunQueued', data: queuedRunOf(triggered) };
        this.readModel.insertRun(workflowRunDecider.evolve(null, queued)!, false);
        break;
      }
      case 'ScheduledTickSkipped':
      case 'ScheduledTickBuffered':
        this.readModel.setLastScheduledFor(event.data.workflowId as string, event.data.scheduledFor as string);
        break;
      case 'ScheduledRunsSkipped': {
        const { workflowId, last } = event.data as ScheduledRunsSkipped['data'];
        this.readModel.setLastScheduledFor(workflowId, last);
        break;
      }
      case 'WorkflowUpdated':
      case 'WorkflowArchived': {
        const before = this.readModel.getAggregate(event.data.workflowId as string);
        const after = before && workflowDecider.evolve(before, event as unknown as WorkflowEvent);
        if (after) this.readModel.saveWorkflow(after);
        break;
      }
      case 'WorkflowPaused':
        this.readModel.pause((event.data as WorkflowPaused['data']).workflowId);
        break;
      case 'WorkflowResumed': {
        const { workflowId, resumedAt } = event.data as WorkflowResumed['data'];
        this.readModel.resume(workflowId, resumedAt);
        break;
      }
      case 'WorkflowRunQueued':
        // The run is usually there already, from its trigger.
        if (!this.readModel.markStreamOpened(event.data.id as string))
          this.readModel.insertRun(workflowRunDecider.evolve(null, event as unknown as WorkflowRunEvent)!, true);
        break;
      default:
        if (event.stream.startsWith(RUN_STREAMS)) this.applyToRun(event);
    }
  }

  private applyToRun(event: RecordedEvent): void {
    // The read model keeps the run without its input, which only WorkflowRunQueued sets: evolve keeps the rest.
    const before = this.readModel.getRunAggregate(event.data.runId as string);
    if (!before) return;
    const after = workflowRunDecider.evolve(
      before as unknown as WorkflowRunAggregate,
      event as unknown as WorkflowRunEvent,
    );
    if (after && after !== (before as unknown)) this.readModel.saveRun(after as unknown as StoredWorkflowRun, true);
  }
}
