import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { startScriptedAnthropicServer } from '../support/scripted-anthropic-server';
import { McpTestServers, startMcpTestServers } from '../support/mcp-test-servers';
import { eventually } from '../support/eventually';
import { readSse } from '../support/sse-client';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Agent runs executed for real: the service's AI SDK providers call a scripted OpenAI-compatible server (a test
 * double for a paid model provider) over HTTP; MCP tools come from a real MCP server written with the SDK.
 */
describe('agent runs', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let mcp: McpTestServers;
  let app: TestApp;

  const env = () => ({
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    MODEL_RETRY_BASE_DELAY_MS: '1',
    MCP_SERVERS_FILE: mcp.file,
    MCP_ALLOWED_HOSTS: '127.0.0.1',
    RUN_CONCURRENCY: '2',
  });

  beforeAll(async () => {
    mcp = await startMcpTestServers();
  });
  afterAll(() => mcp.close());

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: ['Hello', ', world'] }));
    app = await startTestApp({ env: env() });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function createAgent(body: Record<string, unknown> = {}): Promise<string> {
    const created = await app.request('POST', '/v1/agents', {
      name: `agent ${Math.random()}`,
      model: 'openai-compatible/test-model',
      instructions: 'Be brief.',
      ...body,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const runAndWait = (agentId: string, body: Record<string, unknown>, wait = 10) =>
    app.request('POST', `/v1/agents/${agentId}/run`, body, { prefer: `wait=${wait}` });

  it('pages a run list by its cursor (a run id makes the longest cursor the API documents)', async () => {
    const agentId = await createAgent();
    const ran = [
      (await runAndWait(agentId, { task: 'one' })).body.id,
      (await runAndWait(agentId, { task: 'two' })).body.id,
    ];
    const first = await app.request('GET', `/v1/agents/${agentId}/runs?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await app.request('GET', `/v1/agents/${agentId}/runs?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect([first.body.runs[0].id, second.body.runs[0].id]).toEqual(ran);
  });

  it('runs the model on the task and answers the ended run with Prefer: wait', async () => {
    const agentId = await createAgent();
    const ran = await runAndWait(agentId, { task: 'Greet', context: { who: 'world' } });
    expect(ran.status).toBe(200);
    expect(ran.headers.get('preference-applied')).toBe('wait=10');
    expect(ran.body).toMatchObject({
      agentId,
      status: 'succeeded',
      model: 'openai-compatible/test-model',
      output: 'Hello, world',
      usage: { inputTokens: 10, outputTokens: 5 },
      attempts: 1,
      error: null,
      toolCalls: [],
      workflowRunId: null,
    });
    expect(Date.parse(ran.body.endedAt)).toBeGreaterThanOrEqual(Date.parse(ran.body.startedAt));
    // The model got the instructions, the task and the context, and was asked for usage in the stream.
    const sent = model.requests[0];
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(lastUserMessage(sent)).toContain('Greet');
    expect(lastUserMessage(sent)).toContain('"who": "world"');
    expect(sent.stream).toBe(true);
    expect(sent.stream_options).toEqual({ include_usage: true });
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${ran.body.id}`)).body).toEqual(ran.body);
  });

  it('answers 202 at once without Prefer (running while a slot is free, else queued), and 202 with the run as it stands when the wait runs out', async () => {
    model.respondWith(() => ({ kind: 'hang' }));
    const agentId = await createAgent();
    const started = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', startedAt: expect.any(String) });
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${started.body.id}`)).body).toEqual(started.body);
    const waited = await runAndWait(agentId, { task: 'slow' }, 1);
    expect(waited.status).toBe(202);
    expect(waited.body.status).toBe('running');
    // Both slots (RUN_CONCURRENCY=2) are taken: the next run is queued.
    const queued = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'y' });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ status: 'queued', startedAt: null });
  });

  it('records a tool-call round trip with a built-in tool', async () => {
    model.respondWith((body) =>
      hasToolResult(body)
        ? { kind: 'text', text: `The time is ${JSON.stringify(toolResults(body)[0].content)}` }
        : { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'Europe/Berlin' } }] },
    );
    const agentId = await createAgent({ tools: ['current_time'] });
    const ran = await runAndWait(agentId, { task: 'What time is it?' });
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.toolCalls).toHaveLength(1);
    expect(ran.body.toolCalls[0]).toMatchObject({ tool: 'current_time', input: { timezone: 'Europe/Berlin' } });
    expect(ran.body.toolCalls[0].output).toBeDefined();
    expect(ran.body.output).toContain('The time is');
    expect(ran.body.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(model.requests[0].tools?.map((t: any) => t.function.name)).toEqual(['current_time']);
  });

  it('calls a tool of an MCP server, and gives the model the error of a failing one', async () => {
    model.respondWith((body) => {
      if (hasToolResult(body)) return { kind: 'text', text: JSON.stringify(toolResults(body).map((r) => r.content)) };
      return {
        kind: 'toolCalls',
        calls: [
          { name: 'mcp_local_add', arguments: { a: 2, b: 3 } },
          { name: 'mcp_remote_fail', arguments: { message: 'disk full' } },
        ],
      };
    });
    const tools = (await app.request('GET', '/v1/tools')).body.tools.map((t: { id: string }) => t.id);
    expect(tools).toEqual(expect.arrayContaining(['mcp:local/add', 'mcp:remote/fail', 'current_time']));
    const agentId = await createAgent({ tools: ['mcp:local/add', 'mcp:remote/fail'] });
    const ran = await runAndWait(agentId, { task: 'Add' });
    expect(ran.body.status).toBe('succeeded');
    const [add, fail] = ran.body.toolCalls;
    expect(add).toMatchObject({ tool: 'mcp:local/add', input: { a: 2, b: 3 } });
    expect(JSON.stringify(add.output)).toContain('5');
    expect(fail).toMatchObject({ tool: 'mcp:remote/fail' });
    expect(fail.error).toContain('disk full');
    expect(ran.body.output).toContain('disk full');
  });

  it('retries a 429 and records the attempts', async () => {
    model.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', retryAfter: '0' });
    const ran = await runAndWait(await createAgent(), { task: 'x' });
    expect(ran.body).toMatchObject({ status: 'succeeded', output: 'Hello, world', attempts: 2 });
  });

  it('fails with the provider status and message after retrying a 500', async () => {
    model.respondWith(() => ({ kind: 'error', status: 500, message: 'The model is on fire' }));
    const ran = await runAndWait(await createAgent(), { task: 'x' });
    expect(ran.body.status).toBe('failed');
    expect(ran.body.error).toMatchObject({ code: 'provider_error', status: 500 });
    expect(ran.body.error.message).toContain('The model is on fire');
    expect(ran.body.attempts).toBe(3);
  });

  it('fails a run of a provider that is not configured, which does not block creating the agent', async () => {
    const agentId = await createAgent({ model: 'openai/gpt-4o-mini' });
    const ran = await runAndWait(agentId, { task: 'x' });
    expect(ran.body.status).toBe('failed');
    expect(ran.body.error.code).toBe('provider_not_configured');
    expect(ran.body.error.message).toContain('OPENAI_API_KEY');
  });

  it('refuses an unknown provider or tool when the agent is created', async () => {
    const provider = await app.request('POST', '/v1/agents', { name: 'p', model: 'mystery/model' });
    expect(provider.status).toBe(400);
    expect(provider.headers.get('content-type')).toContain('application/problem+json');
    expect(provider.body.errors[0].path).toBe('model');
    expect(provider.body.errors[0].message).toContain('openai, anthropic, ollama, openai-compatible');
    const tool = await app.request('POST', '/v1/agents', { name: 't', model: 'ollama/llama3', tools: ['web_search'] });
    expect(tool.status).toBe(400);
    expect(tool.body.errors).toEqual([{ path: 'tools[0]', message: expect.stringContaining('web_search') }]);
    expect((await app.request('GET', '/v1/agents')).body.agents).toEqual([]);
  });

  it('streams a live run: its text as written, then its end with the whole run', async () => {
    model.enqueue({ kind: 'text', text: ['one ', 'two ', 'three'], chunkDelayMs: 150 });
    const agentId = await createAgent();
    const run = (await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'count' })).body;
    const { status, contentType, messages } = await readSse(`${app.url}/v1/agents/${agentId}/runs/${run.id}/stream`);
    expect(status).toBe(200);
    expect(contentType).toContain('text/event-stream');
    const deltas = messages.filter((m) => m.event === 'delta').map((m) => m.data.text);
    expect(deltas.join('')).toBe('one two three');
    expect(deltas.length).toBeGreaterThan(1);
    expect(messages.at(-1)).toEqual({
      event: 'end',
      data: expect.objectContaining({ status: 'succeeded', output: 'one two three' }),
    });
    expect(messages.filter((m) => m.event === 'status').map((m) => m.data.status)).toContain('succeeded');
  });

  it('starts a stream opened mid-run with the text so far in one delta, then goes live', async () => {
    model.enqueue({ kind: 'text', text: ['one ', 'two ', 'three ', 'four ', 'five ', 'six'], chunkDelayMs: 500 });
    const agentId = await createAgent();
    const run = (await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'count' })).body;
    const url = `${app.url}/v1/agents/${agentId}/runs/${run.id}/stream`;
    // A first watcher sees two pieces arrive; a second opens then, mid-run.
    let seen = 0;
    const first = readSse(url, { stopWhen: (m) => m.event === 'delta' && ++seen === 2 });
    await first;
    const { messages } = await readSse(url);
    const deltas = messages.filter((m) => m.event === 'delta').map((m) => m.data.text);
    expect(deltas[0]).toMatch(/^one two /);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('one two three four five six');
    expect(messages.at(-1)).toEqual({
      event: 'end',
      data: expect.objectContaining({ output: 'one two three four five six' }),
    });
  });

  it('replays an ended run: what it recorded, then end', async () => {
    model.respondWith((body) =>
      hasToolResult(body)
        ? { kind: 'text', text: 'done' }
        : { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: {} }] },
    );
    const agentId = await createAgent({ tools: ['current_time'] });
    const ran = await runAndWait(agentId, { task: 'x' });
    const { messages } = await readSse(`${app.url}/v1/agents/${agentId}/runs/${ran.body.id}/stream`);
    expect(messages.map((m) => m.event)).toEqual([
      'status',
      'status',
      'tool_call',
      'tool_result',
      'delta',
      'status',
      'end',
    ]);
    expect(messages[2].data).toMatchObject({ tool: 'current_time', input: {} });
    expect(messages[4].data).toEqual({ text: 'done' });
    expect(messages[6].data).toEqual(ran.body);
  });

  it('cancels a running run, aborting its model call; a cancelled run answers again; an ended one is a conflict', async () => {
    model.enqueue({ kind: 'hang' });
    const agentId = await createAgent();
    const run = (await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'hang' })).body;
    await eventually(async () =>
      expect((await app.request('GET', `/v1/agents/${agentId}/runs/${run.id}`)).body.status).toBe('running'),
    );
    const cancelled = await app.request('POST', `/v1/agents/${agentId}/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', error: null });
    await eventually(() => expect(model.openRequests()).toBe(0));
    const again = await app.request('POST', `/v1/agents/${agentId}/runs/${run.id}/cancel`);
    expect(again).toMatchObject({ status: 200, body: cancelled.body });

    const done = await runAndWait(agentId, { task: 'x' });
    const conflict = await app.request('POST', `/v1/agents/${agentId}/runs/${done.body.id}/cancel`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.type).toBe('/problems/conflict');
  });

  it('cancels a queued run at once, and the runs wait their turn first in, first out', async () => {
    model.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const agentId = await createAgent();
    const start = (task: string) => app.request('POST', `/v1/agents/${agentId}/run`, { task }).then((r) => r.body);
    const [first, second] = [await start('1'), await start('2')];
    const third = await start('3');
    await eventually(async () =>
      expect((await app.request('GET', `/v1/agents/${agentId}/runs/${second.id}`)).body.status).toBe('running'),
    );
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${third.id}`)).body.status).toBe('queued');
    const cancelled = await app.request('POST', `/v1/agents/${agentId}/runs/${third.id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', startedAt: null });
    const running = await app.request('GET', `/v1/agents/${agentId}/runs?status=running`);
    expect(running.body.runs.map((r: { id: string }) => r.id)).toEqual([first.id, second.id]);
    const bad = await app.request('GET', `/v1/agents/${agentId}/runs?status=done`);
    expect(bad.status).toBe(400);
  });

  it('answers 404 for the stream or cancel of a run that does not exist', async () => {
    const agentId = await createAgent();
    const missing = 'agentrun_01JDQ90A1B2C3D4E5F6G7H8J9K';
    expect((await app.request('POST', `/v1/agents/${agentId}/runs/${missing}/cancel`)).status).toBe(404);
    expect((await readSse(`${app.url}/v1/agents/${agentId}/runs/${missing}/stream`)).status).toBe(404);
  });
});

describe('agent run limits', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  afterEach(async () => {
    await app.close();
    await model.close();
  });

  it('fails a run that outlasts RUN_TIMEOUT_MS with timeout', async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'hang' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_TIMEOUT_MS: '300' } });
    const agent = await app.request('POST', '/v1/agents', { name: 'slow', model: 'openai-compatible/m' });
    const ran = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'x' }, { prefer: 'wait=5' });
    expect(ran.body).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
  });

  it('stops the tool loop at the agent maxSteps', async () => {
    model = await startScriptedOpenAIServer(() => ({
      kind: 'toolCalls',
      calls: [{ name: 'current_time', arguments: {} }],
    }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    const agent = await app.request('POST', '/v1/agents', {
      name: 'loopy',
      model: 'openai-compatible/m',
      tools: ['current_time'],
      maxSteps: 3,
    });
    const ran = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'x' }, { prefer: 'wait=5' });
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.toolCalls).toHaveLength(3);
    expect(model.requests).toHaveLength(3);
  });

  it('runs an agent on Anthropic Messages', async () => {
    const anthropic = await startScriptedAnthropicServer(() => ({ kind: 'text', text: ['Bonjour', '!'] }));
    model = await startScriptedOpenAIServer();
    try {
      app = await startTestApp({
        env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: anthropic.baseUrl.replace(/\/v1$/, '') },
      });
      const agent = await app.request('POST', '/v1/agents', { name: 'fr', model: 'anthropic/claude-test' });
      const ran = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'Greet' }, { prefer: 'wait=5' });
      expect(ran.body).toMatchObject({
        status: 'succeeded',
        output: 'Bonjour!',
        usage: { inputTokens: 10, outputTokens: 5 },
      });
      expect(anthropic.requests[0]).toMatchObject({ model: 'claude-test', system: expect.anything() });
    } finally {
      await anthropic.close();
    }
  });
});
