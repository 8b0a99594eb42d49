'use strict';
// A scripted OpenAI-compatible Chat Completions server for the run benchmarks, in the bench process itself:
// `POST /v1/chat/completions` on 127.0.0.1 at a free port, answering every request with the same short text,
// streamed as SSE (a couple of text chunks, the finish chunk, a usage chunk when `stream_options.include_usage`,
// then `[DONE]`) or as one JSON body. The wire format mirrors test/support/scripted-model-server.ts.
// It records per request how long it took to answer (request received to last byte written), keyed by the
// `bench-run-<n>` tag found in the request, how many requests were open at once at most, and how many came.
// With `log: true` it also keeps, per request, its body, when it arrived and when its answer was written.
// It also answers OpenAI's `POST /v1/embeddings` (for EMBEDDING_MODEL), each text a deterministic vector of 768
// dimensions.
// Usage: const model = await startScriptedModel({ delayMs: 0 }); ...OPENAI_COMPATIBLE_BASE_URL: model.baseUrl...
//        model.timeOf('bench-run-1') (ms), model.maxOpen, model.requests; await model.close();
const { createServer } = require('node:http');
const { performance } = require('node:perf_hooks');

const TEXT = ['Bench ', 'answer.'];
const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** The dimensions of the vectors `POST /v1/embeddings` answers with. */
const DIMS = 768;

/** A deterministic vector of a text: mulberry32 seeded by the text's FNV-1a hash, rounded to 4 decimals. */
function vectorOf(text) {
  let state = 2166136261;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), 16777619);
  const vector = new Array(DIMS);
  for (let i = 0; i < DIMS; i++) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    vector[i] = Math.round((((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5) * 1e4) / 1e4;
  }
  return vector;
}

/** OpenAI's embeddings API: each text its `vectorOf`; the answer time of one-text requests (queries) is kept. */
function embeddingsAnswer(raw, stats) {
  const started = performance.now();
  const { input, model } = JSON.parse(raw);
  const values = typeof input === 'string' ? [input] : input;
  stats.embedded += values.length;
  const data = values.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) }));
  const answer = JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: 1, total_tokens: 1 } });
  if (values.length === 1) stats.queryEmbeddingMs.push(performance.now() - started);
  return answer;
}

const sse = (data) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The SSE frames of the answer, one burst per text chunk (the last one also ends the stream). */
function sseBursts(body, id, text = TEXT) {
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const chunk = (delta, finishReason = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const bursts = text.map((piece) => [chunk({ content: piece })]);
  bursts[0].unshift(chunk({ role: 'assistant', content: '' }));
  const last = bursts[bursts.length - 1];
  last.push(chunk({}, 'stop'));
  if (body.stream_options?.include_usage) last.push(sse({ ...base, choices: [], usage: USAGE }));
  last.push(sse('[DONE]'));
  return bursts.map((burst) => burst.join(''));
}

/** The SSE frames of a call of the tool `name` (its arguments `{}`), ending the stream. */
function toolCallBurst(body, id, name) {
  return toolCallsBurst(body, id, [{ name, arguments: {} }]);
}

/** The SSE frames of calls of tools (`[{ name, arguments }]`, one frame each), ending the stream. */
function toolCallsBurst(body, id, calls) {
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const chunk = (delta, finishReason = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  calls.forEach(({ name, arguments: args }, index) => {
    const callId = calls.length === 1 ? `call_${id}` : `call_${id}_${index}`;
    const call = { index, id: callId, type: 'function', function: { name, arguments: JSON.stringify(args) } };
    frames.push(chunk({ tool_calls: [call] }));
  });
  frames.push(chunk({}, 'tool_calls'));
  if (body.stream_options?.include_usage) frames.push(sse({ ...base, choices: [], usage: USAGE }));
  frames.push(sse('[DONE]'));
  return frames.join('');
}

function jsonAnswer(body, id, text = TEXT) {
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text.join('') }, finish_reason: 'stop' }],
    usage: USAGE,
  });
}

/**
 * Starts the server. `delayMs`: wait before answering at all (a slow model); `chunkDelayMs`: wait between the
 * streamed chunks. Both count in the answer time the bench subtracts. `toolFirst`: a request without a tool
 * result yet is answered with a call of that tool (streamed), the next one with the text. `text`: the answer's
 * chunks, in place of a short fixed text. `failing`: model names (as a request's `model` names them) answered with a
 * 500 error body, for the fallback benchmark; `events` then lists, per tagged request, when its failure was written
 * (`failed`) and when a request of another model arrived (`arrived`), in `performance.now()` ms.
 * `delayMs` may also be a function of the request's body. `toolCalls`: a function of a streamed request's body that
 * returns the tool calls to answer it with (`[{ name, arguments }]`, all in one streamed answer), or nothing for the
 * text. `log: true`: `log` lists each request as `{ body, open, arrived, written }` (`open`: requests open at its
 * arrival, itself included; times in `performance.now()` ms, `written` once its answer's last byte was written).
 */
async function startScriptedModel({
  delayMs = 0,
  chunkDelayMs = 0,
  toolFirst,
  toolCalls,
  text = TEXT,
  failing = [],
  log: logging = false,
} = {}) {
  const times = new Map();
  const events = [];
  const log = [];
  let counter = 0;
  let open = 0;
  const stats = { requests: 0, maxOpen: 0, embedded: 0, queryEmbeddingMs: [] };

  const handle = async (req, res, received, openAtArrival) => {
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      let raw = '';
      req.setEncoding('utf8');
      for await (const chunk of req) raw += chunk;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(embeddingsAnswer(raw, stats));
    }
    if (req.method !== 'POST' || req.url.split('?')[0] !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: `scripted model: no route ${req.method} ${req.url}` } }));
    }
    let raw = '';
    req.setEncoding('utf8');
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    // The last tag: the new task's (a thread's earlier messages hold older ones).
    const tag = [...raw.matchAll(/bench-run-\d+/g)].at(-1)?.[0];
    const id = `chatcmpl-${++counter}`;
    const entry = logging ? { body, open: openAtArrival, arrived: received, written: undefined } : undefined;
    if (entry) log.push(entry);
    const written = () => entry && (entry.written = performance.now());
    if (failing.includes(body.model)) {
      res.writeHead(500, { 'content-type': 'application/json' });
      const error = { error: { message: 'scripted model: failing on purpose', type: 'server_error' } };
      return res.end(JSON.stringify(error), () => events.push({ tag, kind: 'failed', at: performance.now() }));
    }
    if (failing.length) events.push({ tag, kind: 'arrived', at: received });
    const delay = typeof delayMs === 'function' ? delayMs(body) : delayMs;
    if (delay) await sleep(delay);
    const calls = body.stream === true && toolCalls ? toolCalls(body) : undefined;
    if (calls?.length) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(toolCallsBurst(body, id, calls), written);
    } else if (body.stream === true && toolFirst && !body.messages.some((m) => m.role === 'tool')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(toolCallBurst(body, id, toolFirst), written);
    } else if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [i, burst] of sseBursts(body, id, text).entries()) {
        if (i > 0 && chunkDelayMs) await sleep(chunkDelayMs);
        if (res.destroyed) return;
        res.write(burst);
      }
      res.end(() => {
        written();
        if (tag) times.set(tag, performance.now() - received);
      });
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(jsonAnswer(body, id, text), () => {
        written();
        if (tag) times.set(tag, performance.now() - received);
      });
    }
  };

  const server = createServer((req, res) => {
    const received = performance.now();
    stats.requests++;
    stats.maxOpen = Math.max(stats.maxOpen, ++open);
    res.once('close', () => open--);
    handle(req, res, received, open).catch((error) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `scripted model: ${String(error)}`, type: 'server_error' } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();

  return {
    /** Base URL including `/v1`, for OPENAI_COMPATIBLE_BASE_URL. */
    baseUrl: `http://127.0.0.1:${port}/v1`,
    /** Milliseconds from request received to the answer's last byte written, for the request tagged `tag`. */
    timeOf: (tag) => times.get(tag),
    /** With `failing`: each tagged request's failure written, and the next model's request arrived. */
    events,
    /** With `log: true`: every request, in the order they arrived. */
    log,
    get requests() {
      return stats.requests;
    },
    /** Requests answered or being answered at once, at most. */
    get maxOpen() {
      return stats.maxOpen;
    },
    get open() {
      return open;
    },
    resetMaxOpen: () => void (stats.maxOpen = open),
    /** Texts `POST /v1/embeddings` has embedded. */
    get embedded() {
      return stats.embedded;
    },
    /** Per embeddings request of one text (a query), ms from its body read to its answer written. */
    queryEmbeddingMs: stats.queryEmbeddingMs,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

module.exports = { startScriptedModel };
