import { RunError } from '../../domain/run';
import { StepRetry } from '../workflow/workflow.state';
import { WorkflowRunStep } from './workflow-run.state';

/** Errors no retry can fix: a provider not set up, an answer still invalid after its repair, a missing agent. */
const NOT_RETRIED = new Set(['provider_not_configured', 'output_invalid', 'agent_not_found', 'rejected']);

/** The wait before retry `n` (1 for the first): `backoffMs` doubled each time, up to `maxBackoffMs`. */
export function retryDelayMs({ backoffMs, maxBackoffMs }: StepRetry, n: number): number {
  const delay = backoffMs * 2 ** (n - 1);
  return maxBackoffMs === undefined ? delay : Math.min(delay, maxBackoffMs);
}

/** The wait before the step's next attempt, if it gets one: attempts left, an error a retry may fix, time left. */
export function retryOf(step: WorkflowRunStep, error: RunError, now: Date): number | undefined {
  const attempts = step.attempts?.length ?? 0;
  if (!step.retry || attempts >= step.retry.attempts || NOT_RETRIED.has(error.code)) return undefined;
  const delay = retryDelayMs(step.retry, attempts);
  if (step.timeoutMs && step.startedAt && Date.parse(step.startedAt) + step.timeoutMs <= now.getTime() + delay) {
    return undefined;
  }
  return delay;
}
