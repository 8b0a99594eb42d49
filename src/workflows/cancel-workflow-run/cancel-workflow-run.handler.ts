import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { WorkflowsReadModel } from '../queries/workflows.read-model';
import { WorkflowRunOpener } from '../trigger-workflow/workflow-run-opener';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { queuedRunFrom } from '../workflow-run/queued-run';
import { toWorkflowRun } from '../workflow-run/workflow-run.view';
import { workflowRunDecider } from '../workflow-run/workflow-run';
import { workflowRunStream } from '../workflow-run/workflow-run.events';
import { CancelWorkflowRunCommand } from './cancel-workflow-run.command';
import { traceOf } from '../../shared/trace-context';

/**
 * The workflow run ends cancelled at once, its later steps skipped; the process manager then cancels the agent
 * run of the step in progress. Cancelling a cancelled run changes nothing; an ended one is a conflict.
 */
@CommandHandler(CancelWorkflowRunCommand)
export class CancelWorkflowRunHandler implements ICommandHandler<CancelWorkflowRunCommand, WorkflowRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly readYourWrites: ReadYourWrites,
    private readonly readModel: WorkflowsReadModel,
    private readonly opener: WorkflowRunOpener,
  ) {}

  async execute(command: CancelWorkflowRunCommand): Promise<WorkflowRun> {
    const { workflowId, runId } = command;
    const actor = this.actors.of(workflowRunStream(runId), workflowRunDecider);
    const context = { correlationId: runId, causationId: runId, trace: traceOf(command) };
    let run = await actor.read();
    if (!run) {
      // Recorded by its trigger, with its own stream not opened yet: open it now.
      const recorded = this.readModel.getRun(workflowId, runId);
      if (recorded) {
        await this.opener.open(queuedRunFrom(recorded), context);
        run = await actor.read();
      }
    }
    if (run?.workflowId !== workflowId) {
      throw new DomainError('not_found', `Workflow run ${runId} of workflow ${workflowId} does not exist`);
    }
    const { state, position } = await actor.send({ type: 'CancelWorkflowRun' }, context);
    await this.readYourWrites.waitFor(position);
    return toWorkflowRun(state!);
  }
}
