import { DomainError } from '../../domain/decider';
import { isEnded } from '../../domain/run';
import { RecordedEvent } from '../../event-store/event-store';
import { ValidationFailed } from '../../shared/validation-failed';
import { WorkflowsReadModel } from '../../workflows/queries/workflows.read-model';
import { checkRunInput } from '../../workflows/trigger-workflow/run-input-check';
import { WorkflowTriggers } from '../../workflows/trigger-workflow/workflow-triggers';
import { NewRunId, StepOutcome, WorkflowRunCommand } from '../../workflows/workflow-run/workflow-run.commands';
import { WorkflowRunFailed, WorkflowRunSucceeded } from '../../workflows/workflow-run/workflow-run.events';
import { WorkflowRunAggregate, WorkflowRunState } from '../../workflows/workflow-run/workflow-run.state';
import { WorkflowRunActors } from './workflow-run-actors';

type Send = (runId: string, command: WorkflowRunCommand) => Promise<unknown>;

/**
 * Workflow steps' child runs, for the workflow run manager: a step's child run is triggered on the workflow of that
 * name (a run of it like any other, under its slots and input schema, with `parent`); its ending ends the step;
 * a step stopped with its run cancels its child.
 */
export class ChildWorkflowRuns {
  constructor(
    private readonly runs: WorkflowRunActors,
    private readonly workflows: WorkflowsReadModel,
    private readonly triggers: WorkflowTriggers,
    private readonly send: Send,
    private readonly newRunId: NewRunId,
  ) {}

  /**
   * Triggers the child run `childRunId` of the step, unless the step has moved on or the run exists already (the
   * event handled again). A workflow that cannot run it ends the step with the reason, as a failed attempt.
   */
  async start(run: WorkflowRunAggregate, index: number, childRunId: string): Promise<void> {
    const step = run.steps[index];
    if (isEnded(run.status) || step?.childRunId !== childRunId || !step.workflow) return;
    if (await this.runs.read(childRunId)) return;
    const fail = (code: string, message: string) =>
      this.send(run.id, {
        type: 'EndChildWorkflowStep',
        index,
        childRunId,
        outcome: { error: { code, message } },
        newRunId: this.newRunId,
      });
    const named = this.workflows.activeNamed(step.workflow);
    if (named.length !== 1) {
      const message = named.length
        ? `${named.length} workflows are named "${step.workflow}" (${named.map((w) => w.id).join(', ')}); name one of them only once`
        : `No workflow is named "${step.workflow}"`;
      return void (await fail(named.length ? 'workflow_ambiguous' : 'workflow_not_found', message));
    }
    const input = step.sentInput ?? {};
    const parent = { runId: run.id, index, step: step.id, depth: (run.parent?.depth ?? 0) + 1 };
    try {
      const inputSchema = this.workflows.inputSchemaOf(named[0].id);
      if (inputSchema) await checkRunInput(inputSchema, input);
      await this.triggers.trigger(named[0].id, input, { type: 'manual' }, { runId: childRunId, parent });
    } catch (error) {
      if (error instanceof ValidationFailed) {
        const fields = error.errors.map((field) => field.message).join('; ');
        return void (await fail('input_invalid', `Workflow "${step.workflow}" refused the input: ${fields}`));
      }
      if (error instanceof DomainError) return void (await fail('workflow_unavailable', error.message));
      throw error;
    }
  }

  /** A child run ended: its parent's step ends with its output, its error, or its cancellation. */
  async ended(event: RecordedEvent): Promise<void> {
    const data = event.data as (WorkflowRunSucceeded | WorkflowRunFailed)['data'];
    if (!data.parent) return;
    const outcome: StepOutcome =
      event.type === 'WorkflowRunSucceeded'
        ? { output: (data as WorkflowRunSucceeded['data']).output ?? '' }
        : event.type === 'WorkflowRunFailed'
          ? { error: (data as WorkflowRunFailed['data']).error }
          : { cancelled: true };
    const { runId: parentId, index } = data.parent;
    await this.send(parentId, {
      type: 'EndChildWorkflowStep',
      index,
      childRunId: data.runId,
      outcome,
      newRunId: this.newRunId,
    });
  }

  /** The child runs of a run's steps that were stopped with it (cancelled, or past their time limit). */
  async cancel(run: WorkflowRunState | undefined): Promise<void> {
    for (const step of run?.steps ?? []) {
      const stopped = step.status === 'cancelled' || step.error?.code === 'step_timeout';
      if (!step.childRunId || !stopped) continue;
      await this.send(step.childRunId, { type: 'CancelWorkflowRun' }).catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
      });
    }
  }
}
