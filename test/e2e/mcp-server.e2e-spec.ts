import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../support/eventually';
import {
  ChatCompletionsBody,
  ScriptedServer,
  asksTheTime,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, request, startTestApp } from '../support/test-app';

const WRITE_KEY = 'mcp-write-key-0123456789';
const READ_KEY = 'mcp-read-key-0123456789';
const SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, pages: { type: 'integer' } },
  required: ['title', 'pages'],
  additionalProperties: false,
};

/**
 * The service as an MCP server, driven by the MCP SDK's own client over Streamable HTTP. The model behind the agents
 * is the scripted server (a test double of a paid provider): it echoes the task, unless a test scripts otherwise.
 */
describe('the MCP server at /mcp', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => ({ kind: 'text', text: `echo: ${lastUserMessage(body)}` }));
    app = await startTestApp({
      env: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        MODEL_RETRY_BASE_DELAY_MS: '1',
        API_KEYS: WRITE_KEY,
        API_READ_KEYS: READ_KEY,
        RUN_APPROVAL_TIMEOUT_MS: '60000',
      },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.request(method, path, body, { authorization: `Bearer ${WRITE_KEY}`, ...headers });

  async function connect(key = WRITE_KEY): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  async function createAgent(body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
    const name = `mcp-${Math.random().toString(36).slice(2, 10)}`;
    const created = await api('POST', '/v1/agents', { name, model: 'openai-compatible/m', ...body });
    expect(created.status).toBe(201);
    return { id: created.body.id, name };
  }

  const textOf = (result: object) => (result as { content: { text: string }[] }).content[0].text;

  it('lists an agent and a workflow as tools, with their schemas', async () => {
    const agent = await createAgent({ description: 'Writes haiku', outputSchema: SCHEMA });
    const workflow = await api('POST', '/v1/workflows', {
      name: 'digest',
      steps: [{ agent: agent.name, action: 'About {{input.topic}}' }],
      inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    });
    const { client } = await connect();
    const { tools } = await client.listTools();
    const agentTool = tools.find((tool) => tool.name === `agent_${agent.name}`);
    expect(agentTool).toMatchObject({
      description: 'Writes haiku',
      inputSchema: { type: 'object', required: ['task'] },
      outputSchema: SCHEMA,
    });
    const workflowTool = tools.find((tool) => tool.name === 'workflow_digest');
    expect(workflowTool?.inputSchema).toEqual(workflow.body.inputSchema);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  });

  it('runs an agent for a call, recording the session as the run source', async () => {
    const agent = await createAgent();
    const { client, transport } = await connect();
    const result = await client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Say hi' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('echo: Say hi');
    const runId = (result._meta as { runId: string }).runId;
    const run = await api('GET', `/v1/agents/${agent.id}/runs/${runId}`);
    expect(run.body).toMatchObject({
      status: 'succeeded',
      source: { protocol: 'mcp', sessionId: transport.sessionId },
    });
  });

  it('answers structuredContent for an agent with an object output schema', async () => {
    const agent = await createAgent({ outputSchema: SCHEMA });
    model.enqueue({ kind: 'text', text: '{"title": "Cron", "pages": 3}' });
    const { client } = await connect();
    const result = await client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Describe' } });
    expect(result.structuredContent).toEqual({ title: 'Cron', pages: 3 });
  });

  it('runs a workflow for a call, checking its input against the workflow input schema', async () => {
    const agent = await createAgent();
    const name = `flow-${agent.name}`;
    const inputSchema = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] };
    const created = await api('POST', '/v1/workflows', {
      name,
      steps: [{ agent: agent.name, action: 'About {{input.topic}}' }],
      inputSchema,
    });
    const { client } = await connect();
    const result = await client.callTool({ name: `workflow_${name}`, arguments: { topic: 'tides' } });
    expect(textOf(result)).toBe('echo: About tides');
    const runId = (result._meta as { runId: string }).runId;
    const run = await api('GET', `/v1/workflows/${created.body.id}/runs/${runId}`);
    expect(run.body).toMatchObject({ status: 'succeeded', source: { protocol: 'mcp' } });

    // With a progress token: one notification per step that ends, `progress` of `total` steps.
    const progress: { progress: number; total?: number; message?: string }[] = [];
    await client.callTool({ name: `workflow_${name}`, arguments: { topic: 'moons' } }, undefined, {
      onprogress: (notification) => progress.push(notification),
    });
    expect(progress).toEqual([{ progress: 1, total: 1, message: 'step 0: succeeded' }]);

    const refused = client.callTool({ name: `workflow_${name}`, arguments: { subject: 'tides' } });
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(refused).rejects.toThrow(/topic/);
  });

  it('sends progress with the text so far while the agent writes', async () => {
    const agent = await createAgent();
    model.enqueue({ kind: 'text', text: ['One ', 'two ', 'three'], chunkDelayMs: 40 });
    const { client } = await connect();
    const messages: string[] = [];
    const result = await client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Count' } }, undefined, {
      onprogress: (progress) => messages.push(progress.message ?? ''),
    });
    expect(textOf(result)).toBe('One two three');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages[0]).toBe('One ');
    expect(messages[messages.length - 1]).toBe('One two three');
  });

  it('cancels the run when the client cancels the call', async () => {
    const agent = await createAgent();
    model.enqueue({ kind: 'hang' });
    const { client } = await connect();
    const abort = new AbortController();
    const call = client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Wait' } }, undefined, {
      signal: abort.signal,
    });
    const runs = () => api('GET', `/v1/agents/${agent.id}/runs`);
    await eventually(async () => expect((await runs()).body.runs[0]?.status).toBe('running'));
    abort.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await eventually(async () => expect((await runs()).body.runs[0].status).toBe('cancelled'));
  });

  it('answers at once, as an error naming the approval, when a run waits for a person', async () => {
    const agent = await createAgent({ tools: ['current_time'], approvalRequired: ['current_time'] });
    model.respondWith(asksTheTime);
    try {
      const { client } = await connect();
      const result = await client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Time?' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/waits for a person to approve current_time/);
    } finally {
      model.respondWith((body) => ({ kind: 'text', text: `echo: ${lastUserMessage(body)}` }));
    }
  });

  it('tells open sessions the tool list changed when an agent is created', async () => {
    const { client } = await connect();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    // The session's own event stream (GET), which carries the notification, opens just after the handshake: a
    // change made before it is open is told to no one, so each try makes a new one.
    let agent = { name: '' };
    await eventually(async () => {
      agent = await createAgent();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(changes).toBeGreaterThan(0);
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(`agent_${agent.name}`);
  });

  it('lets a read key list the tools but not call them', async () => {
    const agent = await createAgent();
    const { client } = await connect(READ_KEY);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(`agent_${agent.name}`);
    const call = client.callTool({ name: `agent_${agent.name}`, arguments: { task: 'Hi' } });
    await expect(call).rejects.toThrow(/may only read/);
    await expect(call).rejects.toBeInstanceOf(McpError);
  });

  it('refuses a request without a key, and a session opened with another key', async () => {
    const noKey = await request(app.url, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(noKey.status).toBe(401);
    const { transport } = await connect(WRITE_KEY);
    const stolen = await request(
      app.url,
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        authorization: `Bearer ${READ_KEY}`,
        'mcp-session-id': transport.sessionId!,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
    );
    expect(stolen.status).toBe(404);
    // problem+json, as every refusal of the service, with the JSON-RPC error an MCP client reads beside it.
    expect(stolen.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(stolen.body).toMatchObject({ status: 404, jsonrpc: '2.0', error: { code: -32001 }, id: 2 });
    const initialize = {
      jsonrpc: '2.0',
      id: 3,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const jsonOnly = await request(app.url, 'POST', '/mcp', initialize, {
      authorization: `Bearer ${WRITE_KEY}`,
      accept: 'application/json',
    });
    expect(jsonOnly.status).toBe(406);
    expect(jsonOnly.body).toMatchObject({ type: expect.stringMatching(/not-acceptable$/), error: { code: -32000 } });
  });

  it('refuses an unknown tool and arguments the tool does not declare', async () => {
    const agent = await createAgent();
    const { client } = await connect();
    await expect(client.callTool({ name: 'agent_nobody', arguments: { task: 'x' } })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    const bad = client.callTool({ name: `agent_${agent.name}`, arguments: { task: '' } });
    await expect(bad).rejects.toThrow(/task must not be empty/);
  });
});

describe('the MCP server turned off', () => {
  it('is not there', async () => {
    const app = await startTestApp({ env: { MCP_SERVER_ENABLED: 'false' } });
    try {
      const response = await request(app.url, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(response.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
