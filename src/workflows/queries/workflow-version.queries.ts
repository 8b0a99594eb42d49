import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { stateAtVersion } from '../../actors/state-at-version';
import { EVENT_STORE, EventStore } from '../../event-store/event-store';
import { Clock } from '../../shared/clock';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { WorkflowView, workflowView } from '../workflow-view';

/** A workflow as it was at `version`. */
export class GetWorkflowVersionQuery extends Query<WorkflowView> {
  constructor(
    readonly workflowId: string,
    readonly version: number,
  ) {
    super();
  }
}

/**
 * Folds the workflow's events up to the version asked for. Its definition and status are those of that version;
 * the run-time fields (`lastRun`, `latestRun`, `nextRunAt`) belong to the workflow as it is now, so they are null.
 */
@QueryHandler(GetWorkflowVersionQuery)
export class GetWorkflowVersionHandler implements IQueryHandler<GetWorkflowVersionQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  async execute({ workflowId, version }: GetWorkflowVersionQuery): Promise<WorkflowView> {
    const stream = workflowStream(workflowId);
    const state = await stateAtVersion(this.store, stream, workflowDecider, version, `Workflow ${workflowId}`);
    return { ...workflowView({ ...state, lastRun: null }, this.clock.now(), null), nextRunAt: null };
  }
}
