import { checkPatchFields } from '../../http/patch-body';
import { validateAs } from '../../http/validate-as';
import { applyMergePatch, isPlainObject } from '../../shared/json-merge-patch';
import { ValidationFailed } from '../../shared/validation-failed';
import { CreateWorkflowDto, policyOf } from '../create-workflow/create-workflow.dto';
import { toWorkflowSteps } from '../create-workflow/step-graph-check';
import { toTrigger } from '../create-workflow/workflow-trigger';
import { Workflow, WorkflowDefinition } from '../workflow/workflow.state';

export const EDITABLE_WORKFLOW_FIELDS = [
  'name',
  'trigger',
  'steps',
  'outputStep',
  'overlap',
  'maxConcurrentRuns',
  'concurrency',
  'inputSchema',
] as const;

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

/** The definition with the defaults spelled out (`null`, `allow`, `null`), as changes are compared. */
export function workflowDefinition(workflow: Workflow): WorkflowDefinition {
  const { name, trigger, steps, outputStep, overlap, maxConcurrentRuns, concurrency, inputSchema } = workflow;
  return {
    name,
    trigger,
    steps,
    outputStep: outputStep ?? null,
    overlap: overlap ?? 'allow',
    maxConcurrentRuns: maxConcurrentRuns ?? null,
    concurrency: concurrency ?? null,
    inputSchema: inputSchema ?? null,
  };
}

/**
 * The workflow's definition with the patch merged in, checked by the same rules as a create. `trigger` merges
 * field by field (`{"trigger":{"cron":"0 10 * * *"}}` keeps the time zone); `"trigger": null` makes it manual;
 * `steps` and `inputSchema` are replaced whole (a schema merged key by key could not lose a property); `name` and
 * `steps` cannot be removed. The schema itself is checked by checkInputSchema, as in a create.
 */
export function mergeWorkflowPatch(workflow: Workflow, patch: Record<string, unknown>): WorkflowDefinition {
  const { name, trigger, steps, outputStep } = workflow;
  const current = { name, trigger, steps, outputStep, ...policyOf(workflowPolicy(workflow)) };
  const { inputSchema: _schema, ...merged } = patch;
  const dto = validateAs(CreateWorkflowDto, applyMergePatch(current, merged) as Record<string, unknown>);
  const inputSchema = 'inputSchema' in patch ? patch.inputSchema : (workflow.inputSchema ?? null);
  if (inputSchema !== null && !isPlainObject(inputSchema)) {
    throw new ValidationFailed([{ path: 'inputSchema', message: 'inputSchema must be a JSON Schema object' }]);
  }
  return workflowDefinition({
    ...workflow,
    name: dto.name,
    trigger: toTrigger(dto.trigger),
    steps: toWorkflowSteps(dto.steps, dto.outputStep, dto.name),
    outputStep: dto.outputStep,
    overlap: dto.overlap,
    maxConcurrentRuns: dto.maxConcurrentRuns,
    concurrency: dto.concurrency ? { key: dto.concurrency.key, limit: dto.concurrency.limit } : undefined,
    inputSchema: inputSchema ?? undefined,
  });
}

/** The policy as a create would take it: `null` (no limit) left out. */
function workflowPolicy({ overlap, maxConcurrentRuns, concurrency }: Workflow) {
  return { overlap, maxConcurrentRuns: maxConcurrentRuns ?? undefined, concurrency: concurrency ?? undefined };
}
