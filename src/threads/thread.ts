import { Decider, DomainError, DomainEvent, eventTypes } from '../domain/decider';

/** One message of a conversation, as the model saw or wrote it; `runId` is the run whose exchange it belongs to. */
export interface ThreadMessage {
  role: 'user' | 'assistant' | 'tool';
  /** Text; for a tool message, the tool's result as JSON text. */
  content: string;
  /** An assistant message that calls tools: the calls, by the tool's id. */
  toolCalls?: Array<{ id: string; tool: string; input: unknown }>;
  /** A tool message: the call it answers. */
  toolCallId?: string;
  /** The answer of a turn a later one interrupted (`multitask: interrupt`): what it had written by then. */
  interrupted?: true;
  runId: string;
  createdAt: string;
}

export interface Thread {
  id: string;
  agentId: string;
  metadata: Record<string, unknown>;
  /** The person it is about, whose key seals its content (docs/security.md); absent: none. */
  subjectId?: string;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

/** The thread and the runs whose exchange it holds (an exchange is recorded once, however often it is offered). */
export interface ThreadAggregate extends Thread {
  recordedRuns: string[];
  /** The last message (its `seq`) its running summary folds in; -1: none yet. */
  summaryThrough?: number;
}

export type ThreadState = ThreadAggregate | null;

export type CreateThread = {
  type: 'CreateThread';
  id: string;
  agentId: string;
  metadata: Record<string, unknown>;
  subjectId?: string;
};
export type ArchiveThread = { type: 'ArchiveThread'; threadId: string };
export type RecordExchange = { type: 'RecordExchange'; threadId: string; runId: string; messages: ThreadMessage[] };
/** The running summary, now folding in the messages through `throughSeq`, written by the run `runId`'s model. */
export type SummarizeThread = {
  type: 'SummarizeThread';
  threadId: string;
  summary: string;
  throughSeq: number;
  runId: string;
};
export type ThreadCommand = CreateThread | ArchiveThread | RecordExchange | SummarizeThread;

export type ThreadCreated = DomainEvent<
  'ThreadCreated',
  { id: string; agentId: string; metadata: Record<string, unknown>; subjectId?: string; createdAt: string }
>;
export type ThreadArchived = DomainEvent<'ThreadArchived', { threadId: string; archivedAt: string }>;
/** The exchange of a run that succeeded on the thread: its task, tool calls and results, and answer. */
export type ThreadExchangeRecorded = DomainEvent<
  'ThreadExchangeRecorded',
  { threadId: string; runId: string; messages: ThreadMessage[]; recordedAt: string }
>;
/** The messages that fell out of the window through `throughSeq`, folded into the running summary. */
export type ThreadSummarized = DomainEvent<
  'ThreadSummarized',
  { threadId: string; summary: string; throughSeq: number; runId: string; summarizedAt: string }
>;
export type ThreadEvent = ThreadCreated | ThreadArchived | ThreadExchangeRecorded | ThreadSummarized;

export const THREAD_EVENT_TYPES = eventTypes<ThreadEvent>({
  ThreadCreated: true,
  ThreadArchived: true,
  ThreadExchangeRecorded: true,
  ThreadSummarized: true,
});

export const threadStream = (threadId: string) => `thread-${threadId}`;

export const threadDecider: Decider<ThreadState, ThreadCommand, ThreadEvent> = {
  initialState: null,

  decide(state, command, now) {
    const at = now.toISOString();
    if (command.type === 'CreateThread') {
      if (state) throw new DomainError('conflict', `Thread ${command.id} already exists`);
      const { id, agentId, metadata, subjectId } = command;
      return [
        { type: 'ThreadCreated', data: { id, agentId, metadata, ...(subjectId && { subjectId }), createdAt: at } },
      ];
    }
    if (!state) throw new DomainError('not_found', `Thread ${command.threadId} does not exist`);
    switch (command.type) {
      case 'ArchiveThread':
        if (state.archivedAt) return [];
        return [{ type: 'ThreadArchived', data: { threadId: state.id, archivedAt: at } }];
      case 'RecordExchange': {
        // A run queued before the thread was archived still adds its exchange.
        if (state.recordedRuns.includes(command.runId)) return [];
        const { runId, messages } = command;
        return [{ type: 'ThreadExchangeRecorded', data: { threadId: state.id, runId, messages, recordedAt: at } }];
      }
      case 'SummarizeThread': {
        // A summary that folds in no message past the last one's changes nothing.
        if (command.throughSeq <= (state.summaryThrough ?? -1)) return [];
        const { summary, throughSeq, runId } = command;
        const data = { threadId: state.id, summary, throughSeq, runId, summarizedAt: at };
        return [{ type: 'ThreadSummarized', data }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ThreadCreated': {
        const { id, agentId, metadata, subjectId, createdAt } = event.data;
        return {
          id,
          agentId,
          metadata,
          ...(subjectId && { subjectId }),
          messageCount: 0,
          createdAt,
          updatedAt: createdAt,
          archivedAt: null,
          recordedRuns: [],
        };
      }
      case 'ThreadArchived':
        return state && { ...state, archivedAt: event.data.archivedAt, updatedAt: event.data.archivedAt };
      case 'ThreadExchangeRecorded':
        return (
          state && {
            ...state,
            messageCount: state.messageCount + event.data.messages.length,
            updatedAt: event.data.recordedAt,
            recordedRuns: [...state.recordedRuns, event.data.runId],
          }
        );
      case 'ThreadSummarized':
        return state && { ...state, summaryThrough: event.data.throughSeq };
      default:
        return state;
    }
  },
};

/** The model's view of a thread: its last `max` messages, never a tool result without the call before it. */
export function memoryWindow<Message extends Pick<ThreadMessage, 'role'>>(messages: Message[], max: number): Message[] {
  let start = Math.max(0, messages.length - max);
  while (start < messages.length && messages[start].role === 'tool') start++;
  return messages.slice(start);
}
