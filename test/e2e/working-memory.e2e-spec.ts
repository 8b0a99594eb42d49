import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Working memory on a thread, over three turns, against the scripted model server (a test double): the model keeps
 * a document with update_working_memory, is refused one that breaks the schema, and sees the document at the start
 * of every turn.
 */
describe('working memory', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  /** Each turn's task names the document the model keeps; after a tool result it says what it saw. */
  function script(body: ChatCompletionsBody): ScriptedReply {
    // The thread's earlier turns hold tool results too: only this turn's count.
    const lastUser = body.messages.map((m) => m.role).lastIndexOf('user');
    if (body.messages.slice(lastUser).some((m) => m.role === 'tool')) {
      const results = toolResults(body);
      return { kind: 'text', text: `tool: ${JSON.stringify(results[results.length - 1].content)}` };
    }
    const task = lastUserMessage(body);
    const update = (document: unknown) => ({
      kind: 'toolCalls' as const,
      calls: [{ name: 'update_working_memory', arguments: { document } }],
    });
    if (task === 'I am Ada') return update({ name: 'Ada' });
    if (task === 'I am thirty') return update({ name: 'Ada', age: 'thirty' });
    if (task === 'I am 30') return update({ name: 'Ada', age: 30 });
    return { kind: 'text', text: 'ok' };
  }

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(script);
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name'],
    additionalProperties: false,
  };
  const system = (body: ChatCompletionsBody) =>
    body.messages.filter((m) => m.role === 'system').map((m) => String(m.content));

  it('keeps one document per thread across turns, checked against its schema, seen at every turn', async () => {
    const memory = { maxMessages: 50, working: { schema } };
    const agent = await app.request('POST', '/v1/agents', { name: 'keeper', model: 'openai-compatible/m', memory });
    expect(agent.status).toBe(201);
    expect(agent.body.memory).toEqual(memory);
    const thread = (await app.request('POST', '/v1/threads', { agentId: agent.body.id })).body.id;
    const send = (task: string) => app.request('POST', `/v1/threads/${thread}/runs`, { task }, { prefer: 'wait=10' });

    const first = await send('I am Ada');
    expect(first.body).toMatchObject({ status: 'succeeded', toolCalls: [{ tool: 'memory:update_working_memory' }] });
    expect(system(model.requests[0])).toContainEqual(
      expect.stringContaining('working memory of this conversation is empty'),
    );
    const path = `/v1/memory/threads%2F${thread}/working-memory`;
    expect((await app.request('GET', path)).body).toMatchObject({
      value: { name: 'Ada' },
      source: { runId: first.body.id },
    });

    const second = await send('I am thirty');
    expect(second.body.toolCalls[0].error).toContain("does not match the working memory's schema");
    const seen = model.requests.find((body) => lastUserMessage(body) === 'I am thirty')!;
    expect(system(seen)).toContainEqual(expect.stringContaining('{"name":"Ada"}'));
    expect((await app.request('GET', path)).body.value).toEqual({ name: 'Ada' });

    await send('I am 30');
    const third = await send('What do you know?');
    expect(third.body.status).toBe('succeeded');
    const last = model.requests[model.requests.length - 1];
    expect(system(last)).toContainEqual(expect.stringContaining('{"name":"Ada","age":30}'));
    const versions = (await app.request('GET', `${path}/history`)).body.versions;
    expect(versions.map((v: any) => v.value)).toEqual([{ name: 'Ada' }, { name: 'Ada', age: 30 }]);
    // A run on no thread has no working memory, and no tool for it.
    const alone = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'I am Ada' },
      { prefer: 'wait=10' },
    );
    expect(alone.body.toolCalls[0]).toMatchObject({ error: expect.stringContaining('update_working_memory') });
  });

  it('refuses a working memory schema that is not an object schema', async () => {
    const bad = await app.request('POST', '/v1/agents', {
      name: 'bad-keeper',
      model: 'openai-compatible/m',
      memory: { maxMessages: 5, working: { schema: { type: 'string' } } },
    });
    expectProblem(bad, 400);
    expect(bad.body.errors.map((e: any) => e.path)).toContain('memory.working.schema');
  });
});
