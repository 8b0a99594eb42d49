import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ActorRegistry } from '../../actors/actor-registry';
import { DomainError } from '../../domain/decider';
import { isEnded } from '../../domain/run';
import { ValidationFailed } from '../../shared/validation-failed';
import { stepIdOf, stepIndexOf } from '../../shared/step-graph';
import { WorkflowStep } from '../workflow/workflow.state';
import { WorkflowTriggers } from '../trigger-workflow/workflow-triggers';
import { workflowDecider } from '../workflow/workflow';
import { workflowStream } from '../workflow/workflow.events';
import { WorkflowRun } from '../workflow-run/workflow-run.state';
import { workflowRunDecider } from '../workflow-run/workflow-run';
import { workflowRunStream } from '../workflow-run/workflow-run.events';
import { ReplayWorkflowRunCommand } from './replay-workflow-run.command';
import { traceOf } from '../../shared/trace-context';

/**
 * A new run of the workflow that takes the outputs of the steps `fromStep` does not lead to from the run it
 * replays, and runs `fromStep` and the steps that need it again (the workflow run manager does both when it starts).
 */
@CommandHandler(ReplayWorkflowRunCommand)
export class ReplayWorkflowRunHandler implements ICommandHandler<ReplayWorkflowRunCommand, WorkflowRun> {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly triggers: WorkflowTriggers,
  ) {}

  async execute(command: ReplayWorkflowRunCommand): Promise<WorkflowRun> {
    const { workflowId, runId, fromStep, input, version } = command;
    const run = await this.actors.of(workflowRunStream(runId), workflowRunDecider).read();
    if (run?.workflowId !== workflowId) {
      throw new DomainError('not_found', `Workflow run ${runId} of workflow ${workflowId} does not exist`);
    }
    if (!isEnded(run.status)) {
      throw new DomainError(
        'conflict',
        `Workflow run ${runId} is ${run.status}; a run can be replayed once it has ended`,
      );
    }
    const workflow = await this.actors.of(workflowStream(workflowId), workflowDecider).read();
    if (!workflow) throw new DomainError('not_found', `Workflow ${workflowId} does not exist`);
    const original = version === 'original' && run.steps.length > 0 && run.workflowVersion !== null;
    const steps = original ? run.steps : workflow.steps;
    const from = fromStepId(steps, fromStep);
    const workflowVersion = original ? run.workflowVersion! : workflow.version;
    // A manual trigger always queues a run (only schedule ticks can be skipped or kept for later).
    const replay = await this.triggers.trigger(
      workflowId,
      input ?? run.input,
      { type: 'manual' },
      { replay: { replayOf: { runId, fromStep: from }, workflowVersion } },
      traceOf(command),
    );
    return replay!;
  }
}

/**
 * The id of the step a replay runs again from, named by its id or by its position (a number, from 0): a position
 * is recorded as the id of the step there, so it names the same step whatever the ids are. A 400 when none is.
 */
function fromStepId(steps: Array<Pick<WorkflowStep, 'id'>>, fromStep: string | number): string {
  const ids = steps.map((step, i) => stepIdOf(step, i));
  if (typeof fromStep === 'number') {
    if (fromStep < steps.length) return ids[fromStep];
    const message = `there is no step at position ${fromStep}: the steps are numbered from 0 to ${steps.length - 1}`;
    throw new ValidationFailed([{ path: 'fromStep', message }]);
  }
  if (stepIndexOf(steps, fromStep) === undefined) {
    const message = `no step has the id "${fromStep}" (steps: ${ids.join(', ')})`;
    throw new ValidationFailed([{ path: 'fromStep', message }]);
  }
  return fromStep;
}
