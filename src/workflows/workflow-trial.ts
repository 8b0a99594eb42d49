import { Injectable } from '@nestjs/common';
import { ActorRegistry } from '../actors/actor-registry';
import { AgentDirectory } from '../agents/agent-directory.port';
import { DomainError } from '../domain/decider';
import { isId } from '../shared/ids';
import { FieldError, ValidationFailed } from '../shared/validation-failed';
import { checkInputSchema } from './create-workflow/input-schema-check';
import { checkStepAgents } from './create-workflow/step-agents';
import { WorkflowsReadModel } from './queries/workflows.read-model';
import { checkWorkflowPatch, mergeWorkflowPatch } from './update-workflow/update-workflow.dto';
import { workflowDecider } from './workflow/workflow';
import { workflowStream } from './workflow/workflow.events';
import { WorkflowStep } from './workflow/workflow.state';
import { TrialWorkflow, WorkflowTrials } from './workflow-trials.port';

/** What a trial cannot change: it runs the workflow's steps once an item, outside its schedule and its slots. */
const NOT_TRIED: Record<string, string> = {
  name: 'cannot be overridden: a trial runs as the workflow it tries',
  trigger: "cannot be overridden: a trial runs once an item, never on the workflow's schedule",
  overlap:
    "cannot be overridden: a trial's runs take no slot of the workflow (the experiment's concurrency bounds them)",
  maxConcurrentRuns:
    "cannot be overridden: a trial's runs take no slot of the workflow (the experiment's concurrency bounds them)",
};

/**
 * The steps a trial runs: the workflow's as they were at `version`, with `overrides` (a merge patch of its
 * definition) applied, as a PATCH would apply them but saved nowhere.
 */
export async function trialSteps(
  actors: ActorRegistry,
  workflowId: string,
  version: number,
  overrides: Record<string, unknown> | null,
): Promise<{ name: string; steps: WorkflowStep[]; outputStep?: string }> {
  const pinned = await actors.atVersion(workflowStream(workflowId), workflowDecider, version, `Workflow ${workflowId}`);
  const merged = overrides ? mergeWorkflowPatch(pinned, overrides) : pinned;
  return { name: pinned.name, steps: merged.steps, ...(merged.outputStep && { outputStep: merged.outputStep }) };
}

/** Finds what a target names and checks a trial's overrides as UpdateWorkflowHandler checks a PATCH. */
@Injectable()
export class WorkflowTrialChecks implements WorkflowTrials {
  constructor(
    private readonly actors: ActorRegistry,
    private readonly workflows: WorkflowsReadModel,
    private readonly agents: AgentDirectory,
  ) {}

  named(name: string): TrialWorkflow[] {
    const found = isId('wf', name) ? [this.workflows.get(name)] : this.workflows.activeNamed(name);
    return found
      .filter((workflow) => workflow !== undefined && workflow.status !== 'archived')
      .map((workflow) => ({ id: workflow!.id, name: workflow!.name, version: workflow!.version }));
  }

  async check(workflowId: string, version: number, overrides: Record<string, unknown>): Promise<void> {
    checkWorkflowPatch(overrides);
    const fixed: FieldError[] = Object.keys(overrides)
      .filter((field) => field in NOT_TRIED)
      .map((field) => ({ path: field, message: NOT_TRIED[field] }));
    if (fixed.length) throw new ValidationFailed(fixed);
    const pinned = await this.actors.atVersion(workflowStream(workflowId), workflowDecider, version, workflowId);
    const next = mergeWorkflowPatch(pinned, overrides);
    if ('steps' in overrides) {
      try {
        checkStepAgents(next.steps, this.agents);
      } catch (error) {
        // A step naming no agent is the trial's own mistake here: a 400 under its path, as the others are.
        if (!(error instanceof DomainError)) throw error;
        throw new ValidationFailed(error.errors);
      }
    }
    await checkInputSchema(next.inputSchema, next.steps, 'inputSchema' in overrides);
  }
}
