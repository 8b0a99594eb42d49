import type { StreamCommand, SendResult } from '../../actors/stream-commands';
import type { Agent } from '../../agents/agent';
import type { QueueAgentRun } from '../../agents/agent-run/agent-run.commands';
import { queueingFor } from '../../agents/agent-run/agent-run';
import type { AgentRunEvent } from '../../agents/agent-run/agent-run.events';
import type { AgentRunState, ChildRunRequest } from '../../agents/agent-run/agent-run.state';
import { contextOf } from '../../shared/trace-context';
import type { LocalSlot } from '../agent-runs/runs-queued-here';

/** Whether the event records that the run starts children (its `Wait` did not end it instead). */
export const startsChildren = (event: AgentRunEvent) => event.type === 'AgentRunChildRunsStarted';

/** The parent a child is queued for. */
export type ParentOf = { id: string; depth: number };

/** The queueing of a parent's children, prepared to go in the commit of its `Wait` (ChildRuns.prepare). */
export interface ChildrenQueueing {
  /** The children's streams, opened by the parent's events when they record that it starts them. */
  opens(events: AgentRunEvent[]): Array<StreamCommand<any, any, any>>;
  /**
   * The `Wait` is being written: the children claimed in it start now, their own appends waiting for that commit
   * (not recorded, they stop). No other instance can queue them meanwhile: it learns of them from that commit.
   */
  startAhead(): void;
  /** The `Wait` was written: the children queued with it go to the executor; the others are queued now. */
  recorded(result: SendResult<AgentRunState, AgentRunEvent>): Promise<void>;
  /** The `Wait` failed: the slots kept for the children are let go. */
  notRecorded(): void;
}

/** The context a child's queueing is recorded in: its parent's, in the trace of the call that started it. */
export function childContext(parent: ParentOf, traceparent?: string) {
  return { correlationId: parent.id, causationId: parent.id, trace: contextOf(traceparent) };
}

/** A child's queueing, claimed by `start` when a slot of the local executor is free. */
export function queueingOf(
  parent: ParentOf,
  child: ChildRunRequest,
  agent: Agent,
  start?: LocalSlot['start'],
): QueueAgentRun {
  const { runId: id, task, context, toolCallId } = child;
  const tree = { parentRunId: parent.id, parentToolCallId: toolCallId, depth: parent.depth + 1 };
  return queueingFor(agent, { id, task, context, ...tree }, start);
}
