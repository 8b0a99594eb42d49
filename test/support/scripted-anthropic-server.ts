/**
 * TEST DOUBLE for a paid external service: a scripted Anthropic Messages API server (`POST /v1/messages`,
 * streamed SSE events message_start / content_block_* / message_delta / message_stop, or plain JSON) on
 * 127.0.0.1 at a random port. Scripted with the same replies as the OpenAI one (see scripted-model-server.ts):
 *
 *   const server = await startScriptedAnthropicServer((body) =>
 *     hasAnthropicToolResult(body) ? { kind: 'text', text: 'done' } : { kind: 'toolCalls', calls: [...] });
 *   // ANTHROPIC_BASE_URL = server.baseUrl (ends in /v1); finally await server.close().
 */
import {
  DEFAULT_USAGE,
  ReplyFunction,
  ScriptedServer,
  sse,
  startScriptedServer,
  textChunks,
  toolCallsWithIds,
  WireFormat,
  writeJson,
} from './scripted-model-server';

export interface AnthropicMessagesBody {
  model: string;
  stream?: boolean;
  system?: unknown;
  max_tokens?: number;
  messages: { role: 'user' | 'assistant'; content: string | AnthropicContentBlock[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  [key: string]: unknown;
}

export type AnthropicContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: unknown; is_error?: boolean }
  | { type: string; [key: string]: unknown };

export function startScriptedAnthropicServer(
  reply?: ReplyFunction<AnthropicMessagesBody>,
): Promise<ScriptedServer<AnthropicMessagesBody>> {
  return startScriptedServer(anthropicMessages, reply);
}

/** The tool results sent back to the model, in order. */
export function anthropicToolResults(body: AnthropicMessagesBody): { toolUseId: string; content: unknown }[] {
  return body.messages
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .filter((b): b is Extract<AnthropicContentBlock, { type: 'tool_result' }> => b.type === 'tool_result')
    .map((b) => ({ toolUseId: b.tool_use_id, content: b.content }));
}

export function hasAnthropicToolResult(body: AnthropicMessagesBody): boolean {
  return anthropicToolResults(body).length > 0;
}

let messageCounter = 0;

const anthropicMessages: WireFormat<AnthropicMessagesBody> = {
  path: '/v1/messages',
  isStream: (body) => body.stream === true,

  writeError(res, reply) {
    const headers: Record<string, string> = reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {};
    const type = reply.type ?? (reply.status === 429 ? 'rate_limit_error' : 'api_error');
    writeJson(res, reply.status, { type: 'error', error: { type, message: reply.message } }, headers);
  },

  writeJson(res, reply, body) {
    const usage = reply.usage ?? DEFAULT_USAGE;
    const text = reply.kind === 'text' ? textChunks(reply.text).join('') : reply.text;
    const calls = reply.kind === 'toolCalls' ? toolCallsWithIds(reply) : [];
    writeJson(res, 200, {
      id: `msg_${++messageCounter}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [
        ...(text ? [{ type: 'text', text }] : []),
        ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments })),
      ],
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    });
  },

  sseBursts(reply, body) {
    const usage = reply.usage ?? DEFAULT_USAGE;
    const event = (type: string, data: object) => sse({ type, ...data }, type);
    const bursts: string[][] = [];
    let index = 0;
    const text = reply.kind === 'text' ? textChunks(reply.text) : reply.text ? [reply.text] : [];
    text.forEach((piece, i) => {
      const burst = i === 0 ? [event('content_block_start', { index, content_block: { type: 'text', text: '' } })] : [];
      burst.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      if (i === text.length - 1) burst.push(event('content_block_stop', { index: index++ }));
      bursts.push(burst);
    });
    const calls = reply.kind === 'toolCalls' ? toolCallsWithIds(reply) : [];
    for (const call of calls) {
      bursts.push([
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
        event('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.arguments) },
        }),
        event('content_block_stop', { index: index++ }),
      ]);
    }
    if (bursts.length === 0) bursts.push([]);
    bursts[0].unshift(
      event('message_start', {
        message: {
          id: `msg_${++messageCounter}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
        },
      }),
    );
    bursts[bursts.length - 1].push(
      event('message_delta', {
        delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      }),
      event('message_stop', {}),
    );
    return bursts;
  },
};
