import type { ModelMessage } from 'ai';
import { taskMessage } from '../../agents/agent-run/task-message';
import type { HandoffCall } from './tool-set';

/**
 * What the agent handed to is sent, by the handoff's `input`: the whole conversation so far (`all`, the transfer
 * call and its result included), the task alone (`last_user`), or the task with the summary the handing-off model
 * wrote (`summary`).
 */
export function handoffMessages(
  handoff: HandoffCall & { conversation: ModelMessage[] },
  run: { task: string; context: Record<string, unknown> },
  fromName: string,
): ModelMessage[] {
  if (handoff.input === 'all') return handoff.conversation;
  const task = taskMessage(run.task, run.context);
  if (handoff.input === 'last_user') return [{ role: 'user', content: task }];
  const summary = `What happened so far, as the agent "${fromName}" summed it up:\n${handoff.summary ?? ''}`;
  return [{ role: 'user', content: `${task}\n\n${summary}` }];
}
