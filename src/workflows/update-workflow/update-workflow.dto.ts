import { checkPatchFields } from '../../http/patch-body';
import { validateAs } from '../../http/validate-as';
import { applyMergePatch } from '../../shared/json-merge-patch';
import { CreateWorkflowDto, policyOf, toWorkflowStep } from '../create-workflow/create-workflow.dto';
import { toTrigger } from '../create-workflow/workflow-trigger';
import { Workflow, WorkflowDefinition } from '../workflow';

export const EDITABLE_WORKFLOW_FIELDS = ['name', 'trigger', 'steps', 'overlap', 'maxConcurrentRuns'] as const;

const READ_ONLY_WORKFLOW_FIELDS: Record<string, string> = {
  id: 'cannot be changed',
  status: 'cannot be changed by PATCH (POST …/pause and …/resume change it; DELETE archives the workflow)',
  version: 'cannot be changed (it counts the changes)',
  createdAt: 'cannot be changed',
  lastRun: 'cannot be changed (runs set it)',
  latestRun: 'cannot be changed (runs set it)',
  nextRunAt: 'cannot be changed (the schedule sets it)',
};

/** The top level of a workflow's merge patch: known fields only, none of those that cannot change. */
export function checkWorkflowPatch(patch: unknown): Record<string, unknown> {
  return checkPatchFields(patch, EDITABLE_WORKFLOW_FIELDS, READ_ONLY_WORKFLOW_FIELDS);
}

/** The definition with the policy's defaults spelled out (`allow`, `null`), as changes are compared. */
export function workflowDefinition({ name, trigger, steps, overlap, maxConcurrentRuns }: Workflow): WorkflowDefinition {
  return { name, trigger, steps, overlap: overlap ?? 'allow', maxConcurrentRuns: maxConcurrentRuns ?? null };
}

/**
 * The workflow's definition with the patch merged in, checked by the same rules as a create. `trigger` merges
 * field by field (`{"trigger":{"cron":"0 10 * * *"}}` keeps the time zone); `"trigger": null` makes it manual;
 * `steps` is replaced whole; `name` and `steps` cannot be removed.
 */
export function mergeWorkflowPatch(workflow: Workflow, patch: Record<string, unknown>): WorkflowDefinition {
  const { name, trigger, steps } = workflow;
  const merged = applyMergePatch({ name, trigger, steps, ...policyOf(workflowPolicy(workflow)) }, patch);
  const dto = validateAs(CreateWorkflowDto, merged as Record<string, unknown>);
  return workflowDefinition({
    ...workflow,
    name: dto.name,
    trigger: toTrigger(dto.trigger),
    steps: dto.steps.map(toWorkflowStep),
    overlap: dto.overlap,
    maxConcurrentRuns: dto.maxConcurrentRuns,
  });
}

/** The policy as a create would take it: `null` (no limit) left out. */
function workflowPolicy({ overlap, maxConcurrentRuns }: Workflow) {
  return { overlap, maxConcurrentRuns: maxConcurrentRuns ?? undefined };
}
