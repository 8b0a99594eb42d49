import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { IdGenerator } from '../../shared/ids';
import { WorkflowTriggered, workflowDecider, workflowStream } from '../workflow';
import { WorkflowRun, workflowRunDecider, workflowRunStream } from '../workflow-run';
import { TriggerWorkflowCommand } from './trigger-workflow.command';

/**
 * Records the trigger on the workflow (which moves `lastRun` and, for schedules, refuses a tick twice),
 * then opens the run's own stream.
 */
@CommandHandler(TriggerWorkflowCommand)
export class TriggerWorkflowHandler implements ICommandHandler<TriggerWorkflowCommand, WorkflowRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly projections: ProjectionRunner,
  ) {}

  async execute({ workflowId, input, trigger }: TriggerWorkflowCommand): Promise<WorkflowRun> {
    const runId = this.ids.newId('wfrun');
    const context = { correlationId: runId, causationId: workflowId };
    const { events } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'TriggerWorkflow', workflowId, runId, input, trigger },
      context,
    );
    const triggered = events[0] as WorkflowTriggered;
    const queued = await this.actors.send(
      workflowRunStream(runId),
      workflowRunDecider,
      { type: 'QueueWorkflowRun', id: runId, workflowId, input, trigger, createdAt: triggered.data.triggeredAt },
      context,
      { newStream: true, cache: false },
    );
    // A schedule tick has no client waiting to read the run back; only requests wait for the lists.
    if (trigger.type === 'manual') await this.projections.waitFor(queued.position);
    return queued.state!;
  }
}
