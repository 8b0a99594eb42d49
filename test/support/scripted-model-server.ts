/**
 * TEST DOUBLE for a paid external service: a scripted OpenAI-compatible Chat Completions server
 * (`POST /v1/chat/completions`, streamed SSE or plain JSON) on 127.0.0.1 at a random port, so tests drive the
 * real AI SDK providers over real HTTP without calling (or paying) anyone. It answers only what the test scripts.
 *
 *   const server = await startScriptedOpenAIServer();
 *   server.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', retryAfter: '0' }, { kind: 'text', text: 'hi' });
 *   server.respondWith((body) => (hasToolResult(body) ? { kind: 'text', text: 'done' } : { kind: 'toolCalls', calls: [...] }));
 *   // ...point the provider at server.baseUrl (ends in /v1); read server.requests; finally await server.close().
 *
 * The queue is taken first; when it is empty, the `respondWith` function answers. It also answers OpenAI's
 * `POST /v1/embeddings` (scripted-embeddings.ts), for EMBEDDING_MODEL.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptedEmbeddings } from './scripted-embeddings';

export type ScriptedReply = TextReply | ToolCallsReply | ErrorReply | HangReply;

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

interface Timing {
  /** Wait before answering at all (a slow server). */
  delayMs?: number;
  /** Wait between streamed chunks (so a test can cancel mid-stream or hit a time limit). */
  chunkDelayMs?: number;
  usage?: ScriptedUsage;
}

/** Text; an array is streamed one element per chunk (a string is streamed whole in one chunk). */
export interface TextReply extends Timing {
  kind: 'text';
  text: string | string[];
}

/** One or more tool calls, optionally after some text. */
export interface ToolCallsReply extends Timing {
  kind: 'toolCalls';
  calls: { name: string; arguments: unknown; id?: string }[];
  text?: string;
}

/** An HTTP error with the provider's error body, optionally with `Retry-After`. */
export interface ErrorReply {
  kind: 'error';
  status: number;
  message: string;
  /** OpenAI `error.type` / Anthropic `error.type`. */
  type?: string;
  retryAfter?: string;
}

/** Never answers; the connection stays open until the client gives up or the server closes. */
export interface HangReply {
  kind: 'hang';
}

export type ReplyFunction<Body> = (body: Body) => ScriptedReply;

export interface ScriptedServer<Body> {
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** The parsed request bodies received, in order. */
  requests: Body[];
  /** The headers of each request, in the order of `requests`. */
  requestHeaders: IncomingMessage['headers'][];
  /** Requests whose answer is not finished and whose client is still connected (a cancelled run's call is not). */
  openRequests(): number;
  /** Replies taken first-in first-out, before the reply function is asked. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Answers when the queue is empty. */
  respondWith(reply: ReplyFunction<Body>): void;
  /** The texts of each `POST /v1/embeddings` received, in order. */
  embeddingRequests: string[][];
  /** How `POST /v1/embeddings` embeds a text (default: `wordHashEmbedding`; see scripted-embeddings.ts). */
  embedWith(embed: (text: string) => number[]): void;
  close(): Promise<void>;
}

export const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };

/** How a wire format writes a reply; `stream` comes from the request body. */
export interface WireFormat<Body> {
  path: string;
  isStream(body: Body): boolean;
  writeError(res: ServerResponse, reply: ErrorReply): void;
  writeJson(res: ServerResponse, reply: TextReply | ToolCallsReply, body: Body): void;
  /** The SSE frames of a streamed reply in bursts: one per text chunk or tool call; `chunkDelayMs` apart. */
  sseBursts(reply: TextReply | ToolCallsReply, body: Body): string[][];
}

/** The part both scripted servers share: routing, queue, timing, hanging connections, close. */
export async function startScriptedServer<Body>(
  format: WireFormat<Body>,
  reply?: ReplyFunction<Body>,
): Promise<ScriptedServer<Body>> {
  const requests: Body[] = [];
  const requestHeaders: IncomingMessage['headers'][] = [];
  const queue: ScriptedReply[] = [];
  let replyFunction: ReplyFunction<Body> | undefined = reply;
  const embeddings = new ScriptedEmbeddings();

  const open = new Set<ServerResponse>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    // The model list as OpenAI-compatible servers give it (GET /v1/providers and the console's model picker ask).
    if (req.method === 'GET' && req.url === '/v1/models') {
      return writeJson(res, 200, { object: 'list', data: [{ id: 'scripted', object: 'model', owned_by: 'test' }] });
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      const { status, body } = embeddings.answer(JSON.parse(await readBody(req)));
      return writeJson(res, status, body);
    }
    if (req.method !== 'POST' || req.url?.split('?')[0] !== format.path) {
      return writeJson(res, 404, { error: { message: `scripted server: no route ${req.method} ${req.url}` } });
    }
    const body = JSON.parse(await readBody(req)) as Body;
    requests.push(body);
    requestHeaders.push(req.headers);
    const next = queue.shift() ?? replyFunction?.(body);
    if (next === undefined) {
      return format.writeError(res, { kind: 'error', status: 500, message: 'scripted server: nothing scripted' });
    }
    if (next.kind === 'hang') return;
    if (next.kind === 'error') return format.writeError(res, next);
    await pause(next.delayMs, res);
    if (!format.isStream(body)) return format.writeJson(res, next, body);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, burst] of format.sseBursts(next, body).entries()) {
      if (i > 0) await pause(next.chunkDelayMs, res);
      if (res.destroyed) return;
      res.write(burst.join(''));
    }
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) writeJson(res, 500, { error: { message: `scripted server: ${String(error)}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    requestHeaders,
    openRequests: () => open.size,
    enqueue: (...replies) => void queue.push(...replies),
    respondWith: (fn) => void (replyFunction = fn),
    embeddingRequests: embeddings.requests,
    embedWith: (fn) => embeddings.embedWith(fn),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export function textChunks(text: string | string[]): string[] {
  return typeof text === 'string' ? [text] : text;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** Waits `ms` unless the client has gone away meanwhile. */
function pause(ms: number | undefined, res: ServerResponse): Promise<void> {
  if (!ms) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}

// ---- OpenAI Chat Completions ----

export interface ChatCompletionsBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  [key: string]: unknown;
}

/** The text of the last user message (for routing replies). */
export function lastUserMessage(body: ChatCompletionsBody): string {
  const last = [...body.messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content) ? last.content.map((p: { text?: string }) => p.text ?? '').join('') : '';
}

/** The system message of a request: the agent's instructions ('' when there is none). */
export function systemMessage(body: ChatCompletionsBody): string {
  return String(body.messages.find((message) => message.role === 'system')?.content ?? '');
}

/** The tool results sent back to the model, in order. */
export function toolResults(body: ChatCompletionsBody): { toolCallId: string; content: unknown }[] {
  return body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({ toolCallId: m.tool_call_id ?? '', content: m.content }));
}

export function hasToolResult(body: ChatCompletionsBody): boolean {
  return toolResults(body).length > 0;
}

/** A model that calls `current_time` first, then, given its result, answers `done` (for runs that wait for approval). */
export function asksTheTime(body: ChatCompletionsBody): ScriptedReply {
  return hasToolResult(body)
    ? { kind: 'text', text: 'done' }
    : { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] };
}

export function startScriptedOpenAIServer(
  reply?: ReplyFunction<ChatCompletionsBody>,
): Promise<ScriptedServer<ChatCompletionsBody>> {
  return startScriptedServer(chatCompletions, reply);
}

let completionCounter = 0;

const chatCompletions: WireFormat<ChatCompletionsBody> = {
  path: '/v1/chat/completions',
  isStream: (body) => body.stream === true,

  writeError(res, reply) {
    const headers: Record<string, string> = reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {};
    const type = reply.type ?? (reply.status === 429 ? 'rate_limit_exceeded' : 'server_error');
    writeJson(res, reply.status, { error: { message: reply.message, type, param: null, code: type } }, headers);
  },

  writeJson(res, reply, body) {
    const usage = reply.usage ?? DEFAULT_USAGE;
    const calls = reply.kind === 'toolCalls' ? toolCallsWithIds(reply) : [];
    const text = reply.kind === 'text' ? textChunks(reply.text).join('') : (reply.text ?? null);
    writeJson(res, 200, {
      id: `chatcmpl-${++completionCounter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text,
            ...(calls.length > 0 && {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: openAIUsage(usage),
    });
  },

  sseBursts(reply, body) {
    const base = {
      id: `chatcmpl-${++completionCounter}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    const chunk = (delta: object, finishReason: string | null = null) =>
      sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
    const bursts: string[][] = [];
    const text = reply.kind === 'text' ? textChunks(reply.text) : reply.text ? [reply.text] : [];
    for (const piece of text) bursts.push([chunk({ content: piece })]);
    const calls = reply.kind === 'toolCalls' ? toolCallsWithIds(reply) : [];
    calls.forEach((call, index) => {
      const args = JSON.stringify(call.arguments);
      const half = Math.ceil(args.length / 2);
      bursts.push([
        chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }),
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }),
      ]);
    });
    if (bursts.length === 0) bursts.push([]);
    bursts[0].unshift(chunk({ role: 'assistant', content: '' }));
    const end = [chunk({}, calls.length > 0 ? 'tool_calls' : 'stop')];
    if (body.stream_options?.include_usage) {
      end.push(sse({ ...base, choices: [], usage: openAIUsage(reply.usage ?? DEFAULT_USAGE) }));
    }
    bursts[bursts.length - 1].push(...end, sse('[DONE]'));
    return bursts;
  },
};

let toolCallCounter = 0;

export function toolCallsWithIds(reply: ToolCallsReply): { id: string; name: string; arguments: unknown }[] {
  return reply.calls.map((c) => ({ ...c, id: c.id ?? `call_${++toolCallCounter}` }));
}

function openAIUsage(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
