import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { ProjectionRunner } from '../../read-models/projection-runner';
import { IdGenerator } from '../../shared/ids';
import { WorkflowTriggered, workflowDecider, workflowStream } from '../workflow';
import { WorkflowRun, toWorkflowRun, workflowRunDecider } from '../workflow-run';
import { WorkflowRunOpener } from './workflow-run-opener';
import { TriggerWorkflowCommand } from './trigger-workflow.command';

/**
 * Records the trigger on the workflow (which moves `lastRun` and, for schedules, refuses a tick twice); the
 * trigger alone makes the run. Then the run's own stream is opened (see WorkflowRunOpener).
 */
@CommandHandler(TriggerWorkflowCommand)
export class TriggerWorkflowHandler implements ICommandHandler<TriggerWorkflowCommand, WorkflowRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly projections: ProjectionRunner,
    private readonly runs: WorkflowRunOpener,
  ) {}

  private readonly logger = new Logger('TriggerWorkflow');

  async execute({ workflowId, input, trigger }: TriggerWorkflowCommand): Promise<WorkflowRun> {
    const runId = this.ids.newId('wfrun');
    const context = { correlationId: runId, causationId: workflowId };
    const { events, position } = await this.actors.send(
      workflowStream(workflowId),
      workflowDecider,
      { type: 'TriggerWorkflow', workflowId, runId, input, trigger },
      context,
    );
    const triggered = events[0] as WorkflowTriggered;
    const run = toWorkflowRun(
      workflowRunDecider.evolve(null, {
        type: 'WorkflowRunQueued',
        data: {
          id: runId,
          workflowId,
          input,
          trigger,
          workflowVersion: triggered.data.workflowVersion,
          createdAt: triggered.data.triggeredAt,
        },
      })!,
    );
    // The trigger is durable now, and with it the run. A schedule tick has no client waiting for the run: its
    // stream is opened after the tick's other triggers. A request opens it at once and waits for the lists.
    if (trigger.type === 'schedule') {
      this.runs.openSoon(run, context);
      return run;
    }
    // Should opening the stream fail, the opener's sweep does it later, so the answer stays a 202 (a retry
    // would only start a second run).
    const opened = await this.runs.open(run, context).catch((error: unknown) => {
      this.logger.warn(`Run ${runId} is recorded; its stream will be opened later: ${String(error)}`);
      return undefined;
    });
    await this.projections.waitFor(opened?.position ?? position);
    return opened?.state ? toWorkflowRun(opened.state) : run;
  }
}
