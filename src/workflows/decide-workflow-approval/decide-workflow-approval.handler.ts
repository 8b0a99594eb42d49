import { runIdsFrom } from '../workflow-run/workflow-run.commands';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { ReadYourWrites } from '../../read-models/read-your-writes';
import { IdGenerator } from '../../shared/ids';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { toWorkflowRun } from '../workflow-run/workflow-run.view';
import { workflowRunDecider } from '../workflow-run/workflow-run';
import { workflowRunStream } from '../workflow-run/workflow-run.events';
import { DecideWorkflowApprovalCommand } from './decide-workflow-approval.command';
import { traceOf } from '../../shared/trace-context';

/** A person's decision at the approval step a workflow run waits at: approve goes on, reject fails the run. */
@CommandHandler(DecideWorkflowApprovalCommand)
export class DecideWorkflowApprovalHandler implements ICommandHandler<DecideWorkflowApprovalCommand, WorkflowRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly ids: IdGenerator,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(command: DecideWorkflowApprovalCommand): Promise<WorkflowRun> {
    const { workflowId, runId, decision, reason, data } = command;
    const actor = this.actors.of(workflowRunStream(runId), workflowRunDecider);
    const run = await actor.read();
    if (run?.workflowId !== workflowId) {
      throw new DomainError('not_found', `Workflow run ${runId} of workflow ${workflowId} does not exist`);
    }
    const { state, position } = await actor.send(
      {
        type: 'DecideWorkflowApproval',
        decision,
        ...(reason !== undefined && { reason }),
        ...(data !== undefined && { data }),
        newRunId: runIdsFrom(this.ids),
      },
      { correlationId: runId, causationId: runId, trace: traceOf(command) },
    );
    await this.readYourWrites.waitFor(position);
    return toWorkflowRun(state!);
  }
}
