/**
 * The content of events about a subject, by event type: what is sealed under the subject's data key (see
 * sealed-values.ts for how a path reads). Ids, statuses, times, usage and the like stay as they are, so that the
 * deciders and projections still follow the history once the content reads `{"forgotten": true}`.
 */
export const SEALED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  AgentRunQueued: ['task', 'context'],
  AgentRunToolCalled: ['input'],
  AgentRunToolReturned: ['output'],
  AgentRunApprovalRequested: ['approvals[].args'],
  AgentRunChildRunsStarted: ['children[].task', 'children[].context'],
  AgentRunChildRunEnded: ['output'],
  AgentRunHandedOff: ['messages'],
  AgentRunSucceeded: ['output', 'outputObject'],
  AgentRunCancelled: ['partialOutput'],
  ThreadCreated: ['metadata'],
  ThreadExchangeRecorded: ['messages[].content', 'messages[].toolCalls[].input'],
  ThreadSummarized: ['summary'],
  MemoryItemPut: ['value'],
  IdempotentRequestCompleted: ['response.body'],
};

/** A subject id: what `context.subjectId`, a thread's `subjectId` and the routes take. */
export const SUBJECT_ID = /^[A-Za-z0-9_.:@-]{1,200}$/;

/** SUBJECT_ID in words, for the messages that refuse one. */
export const SUBJECT_ID_RULE = 'letters, digits and _ . : @ - (at most 200)';

/**
 * The subject new events name themselves, if any: a run's `context.subjectId`, a thread's `subjectId`. Other events
 * are about the subject their stream is about (see SealingEventStore).
 */
export function subjectNamed(type: string, data: Record<string, unknown>): string | undefined {
  const named =
    type === 'AgentRunQueued'
      ? (data.context as Record<string, unknown> | undefined)?.subjectId
      : type === 'ThreadCreated'
        ? data.subjectId
        : undefined;
  return typeof named === 'string' && SUBJECT_ID.test(named) ? named : undefined;
}
