import { AgentRunAggregate } from '../../agents/agent-run/agent-run.state';
import { AgentRunQueued } from '../../agents/agent-run/agent-run.events';
import { agentRunDecider } from '../../agents/agent-run/agent-run';
import type { Agent } from '../../agents/agent';
import type { RecordedEvent } from '../../event-store/event-store';
import type { ThreadsReadModel } from '../../threads/queries/threads.read-model';

/** Queued runs held in memory at most; past it the subscription waits, so a backlog costs no memory. */
export const MAX_WAITING = 10_000;
/**
 * The checkpoint is written at most this often (the latest position then): a restart reads again at most this much
 * of the log, whose runs it finds started or ended, rather than one write of the read database per run.
 */
export const CHECKPOINT_EVERY_MS = 1000;
/** Runs whose claim settled here lately: the log may still bring their queueing after it (a local hand-off). */
export const TAKEN_KEPT = 10_000;

/** A run waiting in the agent run executor for a slot, or being claimed. */
export interface Waiting {
  runId: string;
  /** Its thread's runs execute one at a time, in the order of their queueing (`position` in the log). */
  threadId?: string;
  position: bigint;
  /** The trace of the request that queued the run (or decided its approvals): the run's span continues it. */
  traceparent?: string;
  /** The run's stream as its queueing left it, when known: the claim appends on it without reading the stream. */
  queued?: { run: AgentRunAggregate; revision: bigint };
  /** Its queueing failed or its outcome is unknown: a claim that finds no run must not pass it over for good. */
  unrecorded?: boolean;
  /** Lets the checkpoint pass the run: its claim has settled. */
  claimed(): void;
}

/**
 * Where the first waiting run that may go stands in `waiting`: one of no thread, or the next of a thread none of
 * whose runs is being claimed or executed (`busy`); -1 when none may go.
 */
export function nextReadyIndex(
  waiting: readonly Waiting[],
  busy: Iterable<{ threadId?: string }>,
  appliedPosition: bigint,
  threads: Pick<ThreadsReadModel, 'hasOpenRunBefore'>,
): number {
  const busyThreads = new Set<string>();
  for (const entry of busy) if (entry.threadId) busyThreads.add(entry.threadId);
  return waiting.findIndex((entry) => {
    const { threadId } = entry;
    if (!threadId) return true;
    const ready =
      !busyThreads.has(threadId) &&
      // The read models have the run itself, so every run queued on the thread before it too.
      appliedPosition >= entry.position &&
      !threads.hasOpenRunBefore(threadId, entry.runId);
    busyThreads.add(threadId);
    return ready;
  });
}

/** The run as its `AgentRunQueued` leaves a new stream (the event's revision is the stream's). */
export function queuedBy(event: RecordedEvent): Waiting['queued'] {
  const run = agentRunDecider.evolve(agentRunDecider.initialState, event as unknown as AgentRunQueued);
  return run ? { run, revision: event.revision } : undefined;
}

/** The agent run's span, after the semantic conventions for generative AI agents. */
export function runAttributes(run: AgentRunAggregate, agent: Agent | null) {
  const model = run.model || agent?.model || '';
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.id': run.agentId,
    ...(agent && { 'gen_ai.agent.name': agent.name }),
    'gen_ai.provider.name': model.slice(0, model.indexOf('/')),
    'gen_ai.request.model': model.slice(model.indexOf('/') + 1),
    'app.agent_run.id': run.id,
    ...(run.threadId && { 'gen_ai.conversation.id': run.threadId }),
    ...(run.workflowRunId && {
      'app.workflow_run.id': run.workflowRunId,
      'app.workflow_step.index': run.stepIndex ?? 0,
    }),
  };
}
