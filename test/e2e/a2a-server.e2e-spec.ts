import { Role, TaskState, type AgentCard, type Message, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { eventually } from '../support/eventually';
import {
  ChatCompletionsBody,
  ScriptedServer,
  asksTheTime,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, request, startTestApp, temporaryDataDir } from '../support/test-app';

const WRITE_KEY = 'a2a-write-key-0123456789';
const READ_KEY = 'a2a-read-key-0123456789';

/** The scripted model (a test double of a paid provider) echoes the task and says how many messages it was sent. */
const echo = (body: ChatCompletionsBody) => ({
  kind: 'text' as const,
  text: `echo: ${lastUserMessage(body)} (${body.messages.length} messages)`,
});

/**
 * The service as an A2A server, driven by `@a2a-js/sdk`'s own client over real HTTP: cards, blocking and
 * non-blocking sends, streams, conversations by contextId, cancels, input-required, and tasks read back from the
 * read models after a restart.
 */
describe('the A2A server at /a2a/{agentName}', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  let dataDir: string;
  const env = () => ({
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    MODEL_RETRY_BASE_DELAY_MS: '1',
    API_KEYS: WRITE_KEY,
    API_READ_KEYS: READ_KEY,
    RUN_APPROVAL_TIMEOUT_MS: '60000',
  });

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(echo);
    dataDir = temporaryDataDir();
    app = await startTestApp({ dataDir, env: env() });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const api = (method: string, path: string, body?: unknown) =>
    app.request(method, path, body, { authorization: `Bearer ${WRITE_KEY}` });

  async function createAgent(body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
    const name = `a2a-${Math.random().toString(36).slice(2, 10)}`;
    const created = await api('POST', '/v1/agents', { name, model: 'openai-compatible/m', ...body });
    expect(created.status).toBe(201);
    return { id: created.body.id, name };
  }

  function factory(key = WRITE_KEY, legacy = false): ClientFactory {
    const fetchImpl: typeof fetch = (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${key}`);
      return fetch(url, { ...init, headers });
    };
    return new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: legacy } })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
  }

  const clientOf = (agentName: string, key = WRITE_KEY) => factory(key).createFromUrl(`${app.url}/a2a/${agentName}/`);

  const send = (text: string, options: { contextId?: string; returnImmediately?: boolean } = {}) =>
    ({
      message: {
        messageId: `m-${Math.random()}`,
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: text } }],
        ...(options.contextId && { contextId: options.contextId }),
      } as unknown as Message,
      configuration: { returnImmediately: options.returnImmediately ?? false },
    }) as SendMessageRequest;

  const answerOf = (task: Task) => {
    const part = task.artifacts[0]?.parts[0]?.content;
    return part?.$case === 'text' ? part.value : undefined;
  };

  it("serves each agent's card and the service's, and the client resolves the agent's", async () => {
    const agent = await createAgent({ description: 'Answers questions about tides' });
    const client = await clientOf(agent.name);
    const card: AgentCard = await client.getAgentCard();
    expect(card).toMatchObject({ name: agent.name, capabilities: { streaming: true } });
    expect(card.description).toMatch(/^Answers questions about tides/);
    expect(card.description).toMatch(/approval is made through the service's HTTP API or console/);
    expect(card.supportedInterfaces.map((one) => one.protocolVersion)).toEqual(['1.0', '0.3']);
    expect(card.supportedInterfaces[0].url).toBe(`${app.url}/a2a/${agent.name}`);
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);

    const service = await request(app.url, 'GET', '/.well-known/agent-card.json', undefined, {
      authorization: `Bearer ${READ_KEY}`,
    });
    expect(service.status).toBe(200);
    expect(service.body.skills.map((skill: { id: string }) => skill.id)).toContain(agent.name);
    expect(JSON.stringify(service.body)).toContain(`${app.url}/a2a/${agent.name}/.well-known/agent-card.json`);
    expect((await request(app.url, 'GET', '/.well-known/agent-card.json')).status).toBe(401);
    expect(
      (
        await request(app.url, 'GET', `/a2a/nobody/.well-known/agent-card.json`, undefined, {
          authorization: `Bearer ${READ_KEY}`,
        })
      ).status,
    ).toBe(404);
  });

  it('answers a blocking send with the completed task, recording the conversation as the run source', async () => {
    const agent = await createAgent();
    const client = await clientOf(agent.name);
    const task = (await client.sendMessage(send('Say hi'))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(task)).toBe('echo: Say hi (2 messages)');
    expect(task.id).toMatch(/^agentrun_/);
    expect(task.contextId).toMatch(/^thread_/);
    const run = await api('GET', `/v1/agents/${agent.id}/runs/${task.id}`);
    expect(run.body).toMatchObject({
      threadId: task.contextId,
      source: { protocol: 'a2a', contextId: task.contextId },
    });
  });

  it('answers a non-blocking send at once, and GetTask follows the run to its end', async () => {
    const agent = await createAgent();
    model.enqueue({ kind: 'text', text: 'slow answer', delayMs: 300 });
    const client = await clientOf(agent.name);
    const task = (await client.sendMessage(send('Take your time', { returnImmediately: true }))) as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    await eventually(async () => {
      const now = await client.getTask({ id: task.id } as never);
      expect(now.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(answerOf(now)).toBe('slow answer');
    });
  });

  it('streams a task to completion: the task, its text as an artifact, and each state', async () => {
    const agent = await createAgent();
    model.enqueue({ kind: 'text', text: ['One ', 'two ', 'three'], chunkDelayMs: 30 });
    const client = await clientOf(agent.name);
    const cases: string[] = [];
    const states: TaskState[] = [];
    let answer = '';
    for await (const event of client.sendMessageStream(send('Count'))) {
      cases.push(event.payload!.$case);
      if (event.payload?.$case === 'statusUpdate') states.push(event.payload.value.status!.state);
      if (event.payload?.$case === 'artifactUpdate') {
        const { artifact, append } = event.payload.value;
        const part = artifact!.parts[0].content;
        if (part?.$case === 'text') answer = append ? answer + part.value : part.value;
      }
    }
    expect(cases[0]).toBe('task');
    expect(cases).toContain('artifactUpdate');
    expect(states[states.length - 1]).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer).toBe('One two three');
  });

  it('continues a conversation by contextId', async () => {
    const agent = await createAgent();
    const client = await clientOf(agent.name);
    const first = (await client.sendMessage(send('My name is Ada'))) as Task;
    const second = (await client.sendMessage(send('What is my name?', { contextId: first.contextId }))) as Task;
    expect(second.contextId).toBe(first.contextId);
    // The model was sent the first exchange too: system, user, assistant, user.
    expect(answerOf(second)).toBe('echo: What is my name? (4 messages)');
    const refused = client.sendMessage(send('Hi', { contextId: 'made-up-context' }));
    await expect(refused).rejects.toThrow(/contextId made-up-context is not one this service gave/);
  });

  it('cancels a task: the run ends cancelled', async () => {
    const agent = await createAgent();
    model.enqueue({ kind: 'hang' });
    const client = await clientOf(agent.name);
    const task = (await client.sendMessage(send('Wait', { returnImmediately: true }))) as Task;
    await eventually(async () =>
      expect((await api('GET', `/v1/agents/${agent.id}/runs/${task.id}`)).body.status).toBe('running'),
    );
    const cancelled = await client.cancelTask({ id: task.id } as never);
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await api('GET', `/v1/agents/${agent.id}/runs/${task.id}`)).body.status).toBe('cancelled');
    await expect(client.cancelTask({ id: task.id } as never)).rejects.toThrow(/has ended/);
  });

  it('is input-required while a tool call waits for a person, saying where to approve it', async () => {
    const agent = await createAgent({ tools: ['current_time'], approvalRequired: ['current_time'] });
    model.respondWith(asksTheTime);
    try {
      const client = await clientOf(agent.name);
      const task = (await client.sendMessage(send('Time?'))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const text = task.status?.message?.parts[0].content;
      expect(text?.$case === 'text' && text.value).toMatch(/approve current_time.*\/approvals/);
    } finally {
      model.respondWith(echo);
    }
  });

  it('lets a read key read a task but not send, and answers the 0.3 method names of the compatibility mode', async () => {
    const agent = await createAgent();
    const writer = await clientOf(agent.name);
    const task = (await writer.sendMessage(send('Hello'))) as Task;
    const reader = await clientOf(agent.name, READ_KEY);
    expect((await reader.getTask({ id: task.id } as never)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect(reader.sendMessage(send('Hi'))).rejects.toThrow(/may only read/);

    // The SDK's client in its 0.3 mode, given the card's 0.3 interface: message/send and tasks/get on the wire.
    const card = await writer.getAgentCard();
    const legacyCard = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter((one) => one.protocolVersion === '0.3'),
    };
    const legacy = await factory(WRITE_KEY, true).createFromAgentCard(legacyCard);
    const old = (await legacy.sendMessage(send('Old client'))) as Task;
    expect(old.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answerOf(await legacy.getTask({ id: old.id } as never))).toBe('echo: Old client (2 messages)');
    const raw = await request(
      app.url,
      'POST',
      `/a2a/${agent.name}`,
      { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: old.id } },
      {
        authorization: `Bearer ${READ_KEY}`,
      },
    );
    expect(raw.body.result).toMatchObject({ kind: 'task', id: old.id, status: { state: 'completed' } });
  });

  it('answers GetTask from the read models after a restart', async () => {
    const agent = await createAgent();
    const task = (await (await clientOf(agent.name)).sendMessage(send('Remember me'))) as Task;
    await app.close();
    app = await startTestApp({ dataDir, env: env() });
    const again = await (await clientOf(agent.name)).getTask({ id: task.id } as never);
    expect(again).toMatchObject({
      id: task.id,
      contextId: task.contextId,
      status: { state: TaskState.TASK_STATE_COMPLETED },
    });
    expect(answerOf(again)).toBe('echo: Remember me (2 messages)');
  });
});

describe('the A2A server turned off', () => {
  it('has no cards and no endpoint', async () => {
    const app = await startTestApp({ env: { A2A_SERVER_ENABLED: 'false' } });
    try {
      const created = await app.request('POST', '/v1/agents', { name: 'off', model: 'openai-compatible/m' });
      expect(created.status).toBe(201);
      expect((await request(app.url, 'GET', '/a2a/off/.well-known/agent-card.json')).status).toBe(404);
      expect((await request(app.url, 'GET', '/.well-known/agent-card.json')).status).toBe(404);
      const sent = await request(app.url, 'POST', '/a2a/off', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: {} });
      expect(sent.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
