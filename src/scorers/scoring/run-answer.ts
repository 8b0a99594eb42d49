import type { AgentRun } from '../../agents/agent-run/agent-run.state';
import type { ScoredAnswer } from './code-scorers';

/**
 * A run's answer as scorers read it: the input it was given (an item's, or the run's own task and context), its
 * output, what was expected of it (an item's; null for live traffic), and its tool calls, usage and duration.
 */
export function runAnswer(
  run: AgentRun,
  given: { input: unknown; expected: unknown } = { input: { task: run.task, context: run.context }, expected: null },
): ScoredAnswer {
  const durationMs = run.startedAt && run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  const usage = run.totalUsage ?? run.usage;
  const toolCalls = run.toolCalls.map(({ tool, input, output, error }) => ({ tool, input, output, error }));
  return {
    input: given.input,
    output: run.output,
    outputObject: run.outputObject ?? undefined,
    expected: given.expected,
    run: { toolCalls, usage, durationMs },
  };
}
