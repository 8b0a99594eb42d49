import { WorkflowsReadModel } from './queries/workflows.read-model';
import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { ReadYourWrites } from '../read-models/read-your-writes';
import { Clock } from '../shared/clock';
import { WorkflowCommand } from './workflow/workflow.commands';
import { workflowDecider } from './workflow/workflow';
import { workflowStream } from './workflow/workflow.events';
import { WorkflowView, workflowView } from './workflow-view';
import { TraceContext } from '../shared/trace-context';

/** A change of an existing workflow's definition or status. */
export type WorkflowChange = Extract<
  WorkflowCommand,
  { type: 'PauseWorkflow' | 'ResumeWorkflow' | 'ArchiveWorkflow' | 'UpdateWorkflow' }
>;

/**
 * Changes a workflow through its actor, and answers with the workflow as the API shows it once the read models show
 * the change too (the pause, resume, archive and update handlers).
 */
@Injectable()
export class WorkflowChanges {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly clock: Clock,
    private readonly readModel: WorkflowsReadModel,
  ) {}

  /** `trace`: the request's command span (`traceOf(command)`), which the change's events belong to. */
  async change(command: WorkflowChange, trace?: TraceContext): Promise<WorkflowView> {
    const { workflowId } = command;
    const context = { correlationId: workflowId, causationId: workflowId, trace };
    const { state, position } = await this.actors.send(workflowStream(workflowId), workflowDecider, command, context);
    await this.readYourWrites.waitFor(position);
    return workflowView(state!, this.clock.now(), this.readModel.latestRun(workflowId));
  }
}
