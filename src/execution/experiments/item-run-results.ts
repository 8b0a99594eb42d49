import { ActorRegistry } from '../../actors/actor-registry';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import { agentRunStream } from '../../agents/agent-run/agent-run.events';
import type { AgentRun } from '../../agents/agent-run/agent-run.state';
import { RunStatus, addUsage } from '../../domain/run';
import { runAnswer } from '../../scorers/scoring/run-answer';
import type { ScoredAnswer } from '../../scorers/scoring/code-scorers';
import { stepIndexOf } from '../../shared/step-graph';
import { workflowRunDecider } from '../../workflows/workflow-run/workflow-run';
import { workflowRunStream } from '../../workflows/workflow-run/workflow-run.events';

/** An item's run as its scores need it: how it ended, its answer as scorers read it, and what it cost. */
export interface ItemRunResult {
  status: RunStatus;
  output: string | null;
  outputObject?: unknown;
  error?: { code: string; message: string };
  answer: ScoredAnswer;
  modelCalls: number;
  /** Its trial replayed a recorded run: the tool calls given the recorded result, and those that ran the tool. */
  recorded?: { hits: number; misses: number };
}

type Given = { input: unknown; expected: unknown };

/** An agent item's run. */
export async function agentItemRun(actors: ActorRegistry, runId: string, given: Given): Promise<ItemRunResult> {
  const run = await actors.of(agentRunStream(runId), agentRunDecider).read();
  if (!run) throw new Error(`The run ${runId} is not in the store`);
  return {
    ...endOf(run),
    answer: runAnswer(run, given),
    modelCalls: run.attempts,
    ...(run.trial?.recordedFrom && { recorded: recordedCounts(run.toolCalls) }),
  };
}

/**
 * A workflow item's run: its output and the output step's structured answer (the step it names, else the last
 * that succeeded), and the tool calls, usage and model calls of every attempt of its steps, added up.
 */
export async function workflowItemRun(actors: ActorRegistry, runId: string, given: Given): Promise<ItemRunResult> {
  const run = await actors.of(workflowRunStream(runId), workflowRunDecider).read();
  if (!run) throw new Error(`The workflow run ${runId} is not in the store`);
  const attemptIds = run.steps.flatMap((step) => step.attempts?.map((attempt) => attempt.runId) ?? []);
  const attempts = (
    await Promise.all(attemptIds.map((id) => actors.of(agentRunStream(id), agentRunDecider).read()))
  ).filter((attempt) => attempt !== null);
  const toolCalls = attempts.flatMap((attempt) => runAnswer(attempt).run!.toolCalls);
  const usage = addUsage(attempts.map((attempt) => attempt.totalUsage ?? attempt.usage));
  const durationMs = run.startedAt && run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  const succeeded = run.steps.filter((step) => step.status === 'succeeded');
  const named = run.outputStep === undefined ? undefined : run.steps[stepIndexOf(run.steps, run.outputStep) ?? -1];
  const outputObject = (named ?? succeeded[succeeded.length - 1])?.outputObject;
  const replaying = attempts.filter((attempt) => attempt.trial?.recordedFrom);
  return {
    status: run.status,
    output: run.output,
    ...(outputObject !== undefined && outputObject !== null && { outputObject }),
    ...(run.error && { error: { code: run.error.code, message: run.error.message } }),
    answer: { ...given, output: run.output, outputObject, run: { toolCalls, usage, durationMs } },
    modelCalls: attempts.reduce((sum, attempt) => sum + attempt.attempts, 0),
    ...(run.trial?.recordedFrom && { recorded: recordedCounts(replaying.flatMap((attempt) => attempt.toolCalls)) }),
  };
}

function endOf(run: AgentRun) {
  return {
    status: run.status,
    output: run.output,
    ...(run.outputObject !== null && run.outputObject !== undefined && { outputObject: run.outputObject }),
    ...(run.error && { error: { code: run.error.code, message: run.error.message } }),
  };
}

/** A trial's tool calls given their recorded result, and those that ran the tool (calls of agents aside). */
function recordedCounts(calls: Array<{ replayed?: boolean }>): { hits: number; misses: number } {
  const hits = calls.filter((call) => call.replayed === true).length;
  return { hits, misses: calls.filter((call) => call.replayed === false).length };
}
