import { ActorRegistry } from '../../actors/actor-registry';
import { trialSteps } from '../../workflows/workflow-trial';
import { StartWorkflowRun } from '../../workflows/workflow-run/workflow-run.commands';
import { WorkflowRunAggregate } from '../../workflows/workflow-run/workflow-run.state';
import { WorkflowRunActors } from './workflow-run-actors';

/**
 * The definition an experiment's run starts with: the workflow's steps at the run's version, with the trial's
 * overrides merged in (checked when the experiment was created, against that same version).
 */
export async function trialStart(
  actors: ActorRegistry,
  run: WorkflowRunAggregate,
): Promise<Pick<StartWorkflowRun, 'workflowName' | 'workflowVersion' | 'steps' | 'outputStep'>> {
  const workflowVersion = run.workflowVersion!;
  const { name, steps, outputStep } = await trialSteps(actors, run.workflowId, workflowVersion, run.trial!.overrides);
  return { workflowName: name, workflowVersion, steps, ...(outputStep !== undefined && { outputStep }) };
}

/**
 * What the agent run of a step of an experiment's run carries: the experiment (so it is scored with the item, never
 * as live traffic) and, in a trial replaying a recorded workflow run, that run's agent run of the same step, whose
 * tool results it gets back. Nothing for the runs of other workflow runs.
 */
export async function stepTrial(runs: WorkflowRunActors, run: WorkflowRunAggregate, index: number) {
  if (!run.experimentId) return {};
  const source = run.trial?.recordedFrom ? await runs.read(run.trial.recordedFrom) : null;
  const stepId = run.steps[index]?.id;
  const recordedFrom = source?.steps.find((step) => step.id === stepId)?.agentRunId ?? null;
  return { experimentId: run.experimentId, trial: { overrides: null, recordedFrom } };
}
