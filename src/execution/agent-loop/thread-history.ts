import type { JSONValue, ModelMessage } from 'ai';
import type { ThreadMessage } from '../../threads/thread';
import { sanitiseToolName } from '../../tools/model-names';

/**
 * A thread's messages as the AI SDK's model messages. A tool is named as the model sees it now (`modelNames`,
 * by tool id), or, for a tool the agent no longer has, by its id made into a model name.
 */
export function toModelMessages(messages: ThreadMessage[], modelNames: Map<string, string>): ModelMessage[] {
  const nameOf = (toolId: string) => modelNames.get(toolId) ?? sanitiseToolName(toolId);
  const toolNames = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'assistant') {
      // The model is told where a turn was cut short, so that it does not take a partial answer for a whole one.
      const text = message.interrupted
        ? `${message.content}${message.content ? ' ' : ''}[interrupted]`
        : message.content;
      if (!message.toolCalls?.length) return { role: 'assistant', content: text };
      for (const call of message.toolCalls) toolNames.set(call.id, nameOf(call.tool));
      return {
        role: 'assistant',
        content: [
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...message.toolCalls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: nameOf(call.tool),
            input: call.input,
          })),
        ],
      };
    }
    const toolCallId = message.toolCallId ?? '';
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: toolNames.get(toolCallId) ?? 'tool',
          output: { type: 'json', value: parsed(message.content) },
        },
      ],
    };
  });
}

function parsed(text: string): JSONValue {
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return text;
  }
}
