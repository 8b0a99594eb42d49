import type { GuardrailCheck, GuardrailVerdict } from '../guardrails';
import { taskMessage } from '../agent-run/task-message';
import { runLocalChecks } from './run-checks';

/** A run's task and context as recorded, and the verdicts of the input checks run on them. */
export interface QueuedInput {
  task: string;
  context: Record<string, unknown>;
  verdicts: GuardrailVerdict[];
}

/**
 * An agent's input checks of this service's own (every kind but the judges) run as its run is queued, on the task
 * as the model reads it. When one redacts, the run records the task so redacted, its context folded into it (the
 * run's `context` is then `{}`), so the original is stored nowhere. The judges run when the run starts, on the text
 * as these checks left it. Undefined when the agent has no such check: the input is recorded as it was sent.
 */
export function checkQueuedInput(
  task: string,
  context: Record<string, unknown>,
  checks: readonly GuardrailCheck[] | undefined,
): QueuedInput | undefined {
  if (!checks?.some((check) => check.type !== 'agent')) return undefined;
  const message = taskMessage(task, context);
  const checked = runLocalChecks(message, checks, 'input');
  if (checked.text === message) return { task, context, verdicts: checked.verdicts };
  return { task: checked.text, context: {}, verdicts: checked.verdicts };
}
