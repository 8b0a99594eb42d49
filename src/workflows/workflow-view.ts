import { cronSchedule } from './scheduling/cron-schedule';
import { LatestRun } from '../domain/run';
import { Workflow } from './workflow/workflow.state';

/**
 * A workflow as the API shows it: `nextRunAt` is computed when it is read, from the schedule and the clock;
 * `latestRun` is the run `lastRun` (SPEC.md's time, kept) is the time of.
 */
export interface WorkflowView extends Workflow {
  nextRunAt: string | null;
  latestRun: LatestRun | null;
}

export type WorkflowSummary = Pick<
  WorkflowView,
  'id' | 'name' | 'status' | 'lastRun' | 'latestRun' | 'nextRunAt' | 'trigger' | 'createdAt'
>;

/** When the schedule fires next; null for manual or paused workflows. */
export function nextRunAt({ status, trigger }: Pick<Workflow, 'status' | 'trigger'>, now: Date): string | null {
  if (status !== 'active' || trigger.type !== 'schedule') return null;
  return cronSchedule(trigger.cron, trigger.timezone).nextAfter(now).toISOString();
}

export function workflowView(workflow: Workflow, now: Date, latestRun: LatestRun | null): WorkflowView {
  const { id, name, status, trigger, steps, outputStep, inputSchema, lastRun, version, createdAt } = workflow;
  const next = nextRunAt(workflow, now);
  const output = outputStep !== undefined && { outputStep };
  const input = inputSchema && { inputSchema };
  const overlap = workflow.overlap ?? 'allow';
  const maxConcurrentRuns = workflow.maxConcurrentRuns ?? null;
  const concurrency = workflow.concurrency ?? null;
  return {
    id,
    name,
    status,
    trigger,
    steps,
    ...output,
    ...input,
    overlap,
    maxConcurrentRuns,
    concurrency,
    lastRun,
    latestRun,
    nextRunAt: next,
    version,
    createdAt,
  };
}

export function workflowSummary(workflow: Workflow, now: Date, latestRun: LatestRun | null): WorkflowSummary {
  const { id, name, status, lastRun, trigger, createdAt } = workflow;
  return { id, name, status, lastRun, latestRun, nextRunAt: nextRunAt(workflow, now), trigger, createdAt };
}
