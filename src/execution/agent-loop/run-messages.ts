import { AgentRun } from '../../agents/agent-run/agent-run.state';
import { taskMessage } from '../../agents/agent-run/task-message';
import type { ThreadMessage } from '../../threads/thread';

/**
 * What a run that succeeded adds to its thread: the task, each tool call with its result (a call and its result
 * are two messages, kept or dropped together by the memory window), and the answer.
 */
export function exchangeOf(run: AgentRun): ThreadMessage[] {
  const messages = runMessages(run);
  messages.push({
    role: 'assistant',
    content: run.output ?? '',
    runId: run.id,
    createdAt: run.endedAt ?? run.createdAt,
  });
  return messages;
}

/**
 * What a run that a later turn interrupted adds to its thread: the task, the tool calls that had returned, and the
 * answer written so far (perhaps none), marked interrupted.
 */
export function interruptedExchangeOf(run: AgentRun, partialOutput: string | undefined): ThreadMessage[] {
  const messages = runMessages({ ...run, toolCalls: run.toolCalls.filter((call) => call.endedAt) });
  const at = run.endedAt ?? run.createdAt;
  messages.push({ role: 'assistant', content: partialOutput ?? '', interrupted: true, runId: run.id, createdAt: at });
  return messages;
}

/** A run's conversation so far: the task, then each tool call with its result (what a resumed run goes on from). */
export function runMessages(
  run: Pick<AgentRun, 'id' | 'task' | 'context' | 'createdAt' | 'toolCalls'>,
): ThreadMessage[] {
  const runId = run.id;
  const messages: ThreadMessage[] = [
    { role: 'user', content: taskMessage(run.task, run.context), runId, createdAt: run.createdAt },
  ];
  for (const call of run.toolCalls) {
    const at = call.startedAt;
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: call.id, tool: call.tool, input: call.input }],
      runId,
      createdAt: at,
    });
    const result = JSON.stringify(call.error === undefined ? (call.output ?? null) : { error: call.error });
    messages.push({ role: 'tool', content: result, toolCallId: call.id, runId, createdAt: call.endedAt ?? at });
  }
  return messages;
}
