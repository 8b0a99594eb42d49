import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/** Threads: conversations that continue across runs, against the scripted model server (a test double). */
describe('threads', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    // The model answers with the task it got, in capitals: each answer shows which turn it was.
    model = await startScriptedOpenAIServer((body) => ({
      kind: 'text',
      text: `ANSWER ${lastUserMessage(body).toUpperCase()}`,
    }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '4' } });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function createAgent(body: Record<string, unknown> = {}): Promise<string> {
    const created = await app.request('POST', '/v1/agents', {
      name: `agent ${Math.random()}`,
      model: 'openai-compatible/m',
      instructions: 'Be brief.',
      ...body,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function createThread(agentId: string, metadata?: Record<string, unknown>): Promise<string> {
    const created = await app.request('POST', '/v1/threads', { agentId, ...(metadata && { metadata }) });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const send = (threadId: string, task: string) =>
    app.request('POST', `/v1/threads/${threadId}/runs`, { task }, { prefer: 'wait=10' });

  const chat = (body: ChatCompletionsBody) =>
    body.messages.map((m) => [m.role, typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? null)]);

  it('creates, lists, reads and archives a thread, with its history', async () => {
    const agentId = await createAgent();
    const created = await app.request('POST', '/v1/threads', { agentId, metadata: { customer: 'ada' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^thread_/),
      agentId,
      status: 'idle',
      messageCount: 0,
      summary: null,
      metadata: { customer: 'ada' },
      subjectId: null,
      createdAt: app.clock.now().toISOString(),
      updatedAt: app.clock.now().toISOString(),
      archivedAt: null,
    });
    expect(created.headers.get('location')).toBe(`/v1/threads/${created.body.id}`);
    const other = await createThread(await createAgent());
    expect((await app.request('GET', '/v1/threads')).body.threads.map((t: any) => t.id)).toEqual([
      created.body.id,
      other,
    ]);
    expect((await app.request('GET', `/v1/threads?agentId=${agentId}`)).body.threads).toEqual([created.body]);
    expect((await app.request('GET', `/v1/threads/${created.body.id}`)).body).toEqual(created.body);

    const archived = await app.request('DELETE', `/v1/threads/${created.body.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toBe(app.clock.now().toISOString());
    expect((await app.request('DELETE', `/v1/threads/${created.body.id}`)).body).toEqual(archived.body);
    expectProblem(await send(created.body.id, 'more'), 409);
    const history = await app.request('GET', `/v1/threads/${created.body.id}/events`);
    expect(history.body.events.map((e: any) => e.type)).toEqual(['ThreadCreated', 'ThreadArchived']);
  });

  it('refuses bad input with problem+json and records nothing', async () => {
    const agentId = await createAgent();
    expectProblem(await app.request('POST', '/v1/threads', {}), 400);
    expectProblem(await app.request('POST', '/v1/threads', { agentId, metadata: [] }), 400);
    const missing = await app.request('POST', '/v1/threads', { agentId: 'agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J' });
    expectProblem(missing, 422);
    expect((await app.request('GET', '/v1/threads')).body.threads).toEqual([]);
    expectProblem(await app.request('GET', '/v1/threads/thread_01JDQ8ZK5N2B3C4D5E6F7G8H9J'), 404);
    expectProblem(await app.request('GET', '/v1/threads/nope/messages'), 400);
    const threadId = await createThread(agentId);
    expectProblem(await app.request('POST', `/v1/threads/${threadId}/runs`, { task: '' }), 400);
    expectProblem(await app.request('POST', `/v1/threads/${threadId}/runs`, { task: 'x', threadId }), 400);
    expectProblem(await app.request('GET', `/v1/threads/${threadId}/messages?cursor=@@`), 400);
    // A thread of another agent, or one that does not exist, on the agent's run route.
    const otherAgent = await createAgent();
    expectProblem(await app.request('POST', `/v1/agents/${otherAgent}/run`, { task: 'x', threadId }), 409);
    const unknown = await app.request('POST', `/v1/agents/${agentId}/run`, {
      task: 'x',
      threadId: 'thread_01JDQ8ZK5N2B3C4D5E6F7G8H9J',
    });
    expectProblem(unknown, 422);
    expect((await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs).toEqual([]);
  });

  it("gives the model the thread's earlier messages in order, and adds each exchange", async () => {
    const agentId = await createAgent();
    const threadId = await createThread(agentId);
    const first = await send(threadId, 'my name is Ada');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'succeeded', threadId });
    // The agent route takes the thread too.
    const second = await app.request(
      'POST',
      `/v1/agents/${agentId}/run`,
      { task: 'what is my name?', threadId },
      { prefer: 'wait=10' },
    );
    expect(second.body).toMatchObject({ status: 'succeeded', threadId });
    expect(chat(model.requests[1])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'my name is Ada'],
      ['assistant', 'ANSWER MY NAME IS ADA'],
      ['user', 'what is my name?'],
    ]);
    await eventually(async () =>
      expect((await app.request('GET', `/v1/threads/${threadId}`)).body).toMatchObject({
        status: 'idle',
        messageCount: 4,
      }),
    );
    const messages = await app.request('GET', `/v1/threads/${threadId}/messages`);
    expect(messages.body.nextCursor).toBeNull();
    expect(messages.body.messages).toEqual([
      { role: 'user', content: 'my name is Ada', runId: first.body.id, createdAt: first.body.createdAt },
      { role: 'assistant', content: 'ANSWER MY NAME IS ADA', runId: first.body.id, createdAt: first.body.endedAt },
      { role: 'user', content: 'what is my name?', runId: second.body.id, createdAt: second.body.createdAt },
      { role: 'assistant', content: 'ANSWER WHAT IS MY NAME?', runId: second.body.id, createdAt: second.body.endedAt },
    ]);
    // Pages, oldest first.
    const page1 = await app.request('GET', `/v1/threads/${threadId}/messages?limit=3`);
    expect(page1.body.messages).toHaveLength(3);
    const page2 = await app.request('GET', `/v1/threads/${threadId}/messages?limit=3&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toEqual({ messages: [messages.body.messages[3]], nextCursor: null });
  });

  it('adds nothing for a failed run, and says so in its error', async () => {
    const agentId = await createAgent();
    const threadId = await createThread(agentId);
    model.enqueue({ kind: 'error', status: 400, message: 'The model refuses' });
    const failed = await send(threadId, 'fail please');
    expect(failed.body.status).toBe('failed');
    expect(failed.body.error.message).toContain(`nothing was added to thread ${threadId}`);
    await send(threadId, 'next');
    expect(chat(model.requests[1]).map(([role]) => role)).toEqual(['system', 'user']);
    await eventually(async () =>
      expect((await app.request('GET', `/v1/threads/${threadId}`)).body.messageCount).toBe(2),
    );
  });

  it('keeps the last memory.maxMessages messages, a tool call with its result', async () => {
    model.respondWith((body) => {
      const task = lastUserMessage(body);
      if (task === 'tool' && !hasToolResult(body)) {
        return { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] };
      }
      return { kind: 'text', text: `ANSWER ${task.toUpperCase()}` };
    });
    const agentId = await createAgent({ tools: ['current_time'], memory: { maxMessages: 2 } });
    const threadId = await createThread(agentId);
    await send(threadId, 'tool'); // user, assistant (the call), tool (its result), assistant: 4 messages
    await send(threadId, 'next');
    // The last 2 would start at the tool result: it is dropped, as its call is.
    expect(chat(model.requests[2])).toEqual([
      ['system', 'Be brief.'],
      ['assistant', 'ANSWER TOOL'],
      ['user', 'next'],
    ]);
    const updated = await app.request('PATCH', `/v1/agents/${agentId}`, { memory: { maxMessages: 5 } });
    expect(updated.body.memory).toEqual({ maxMessages: 5 });
    await send(threadId, 'again');
    // The last 5 start at the call: the call and its result are kept together.
    const sent = model.requests[3];
    expect(chat(sent).map(([role]) => role)).toEqual([
      'system',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(sent.messages[1].tool_calls).toEqual([
      expect.objectContaining({ function: expect.objectContaining({ name: 'current_time' }) }),
    ]);
    expect(sent.messages[2].tool_call_id).toBe((sent.messages[1].tool_calls as any)[0].id);
  });

  it('runs the runs of one thread one at a time, in the order they were posted', async () => {
    const agentId = await createAgent();
    const threadId = await createThread(agentId);
    const otherThread = await createThread(agentId);
    model.respondWith((body) => ({
      kind: 'text',
      text: `ANSWER ${lastUserMessage(body).toUpperCase()}`,
      delayMs: lastUserMessage(body) === 'one' ? 300 : 0,
    }));
    const posted = [];
    for (const task of ['one', 'two', 'three']) {
      posted.push((await app.request('POST', `/v1/threads/${threadId}/runs`, { task })).body.id);
    }
    expect((await app.request('GET', `/v1/threads/${threadId}`)).body.status).toBe('busy');
    // Another thread is not held up by the busy one.
    const elsewhere = await send(otherThread, 'elsewhere');
    expect(elsewhere.body.status).toBe('succeeded');
    await eventually(async () =>
      expect((await app.request('GET', `/v1/threads/${threadId}`)).body).toMatchObject({
        status: 'idle',
        messageCount: 6,
      }),
    );
    const order = model.requests.map((r) => lastUserMessage(r)).filter((t) => t !== 'elsewhere');
    expect(order).toEqual(['one', 'two', 'three']);
    // Each saw the exchanges of those before it.
    expect(chat(model.requests[model.requests.length - 1]).map(([, c]) => c)).toEqual([
      'Be brief.',
      'one',
      'ANSWER ONE',
      'two',
      'ANSWER TWO',
      'three',
    ]);
    const messages = (await app.request('GET', `/v1/threads/${threadId}/messages`)).body.messages;
    expect(messages.map((m: any) => m.runId)).toEqual([
      posted[0],
      posted[0],
      posted[1],
      posted[1],
      posted[2],
      posted[2],
    ]);
  });
});
