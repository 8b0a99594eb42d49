import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
  systemMessage,
  toolResults,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * An agent's `memory.recall`: before a run, the items of its namespace (filled in from the run's context) that best
 * match the task go to the model as a system message, checked at the scripted model server (a test double), and
 * the run records which versions it was given.
 */
describe('memory recall', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'noted' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const memory = { maxMessages: 50, namespace: 'users/{{context.user}}', recall: { limit: 2 } };
  const run = (agentId: string, task: string, context: object) =>
    app.request('POST', `/v1/agents/${agentId}/run`, { task, context }, { prefer: 'wait=10' });
  const sentTo = (i: number) =>
    model.requests[i].messages.filter((m) => m.role === 'system').map((m) => String(m.content));

  it('gives the model the items that best match the task, and records them on the run', async () => {
    await app.request('PUT', '/v1/memory/users%2Fada/drink', { value: { text: 'Ada drinks green tea, no sugar' } });
    await app.request('PUT', '/v1/memory/users%2Fada/city', { value: 'Ada lives in Lisbon' });
    await app.request('PUT', '/v1/memory/users%2Fada/pet', { value: 'a cat called Tea Leaf' });
    await app.request('PUT', '/v1/memory/users%2Fbob/drink', { value: 'Bob drinks tea with milk' });
    const agent = await app.request('POST', '/v1/agents', { name: 'host', model: 'openai-compatible/m', memory });
    expect(agent.status).toBe(201);
    expect(agent.body.memory).toEqual(memory);

    const done = await run(agent.body.id, 'Make Ada a cup of tea she likes', { user: 'ada' });
    expect(done.body.status).toBe('succeeded');
    expect(done.body.recalled).toEqual([
      { namespace: 'users/ada', key: expect.any(String), version: 1, score: expect.any(Number) },
      { namespace: 'users/ada', key: expect.any(String), version: 1, score: expect.any(Number) },
    ]);
    expect(done.body.recalled.map((item: any) => item.key).sort()).toEqual(['drink', 'pet']);
    const system = sentTo(model.requests.length - 1);
    expect(system[0]).toBe(systemMessage(model.requests[model.requests.length - 1]));
    const recalled = system.find((text) => text.startsWith('What you remember'));
    expect(recalled).toContain('users/ada/drink: {"text":"Ada drinks green tea, no sugar"}');
    expect(recalled).not.toContain('Bob');
    expect(recalled).not.toContain('Lisbon');
    const events = (await app.request('GET', `/v1/agents/${agent.body.id}/runs/${done.body.id}/events`)).body.events;
    expect(events.find((e: any) => e.type === 'AgentRunRecalled').data).toMatchObject({ namespace: 'users/ada' });
  });

  it('recalls nothing, and records an empty recall, when nothing matches; nothing without the context field', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'quiet', model: 'openai-compatible/m', memory });
    const none = await run(agent.body.id, 'Quantum chromodynamics', { user: 'ada' });
    expect(none.body.recalled).toEqual([]);
    expect(sentTo(model.requests.length - 1).some((text) => text.startsWith('What you remember'))).toBe(false);
    const nobody = await run(agent.body.id, 'tea', {});
    expect(nobody.body).toMatchObject({ status: 'succeeded', recalled: null });
  });

  it('gives the model remember, recall and forget on its namespace; what it remembers names the run', async () => {
    const tools = { maxMessages: 50, namespace: 'users/{{context.user}}', tools: true };
    const agent = await app.request('POST', '/v1/agents', {
      name: 'scribe',
      model: 'openai-compatible/m',
      memory: tools,
    });
    expect(agent.body.memory).toEqual(tools);
    const script: Record<string, { name: string; arguments: unknown }> = {
      'note it': { name: 'remember', arguments: { key: 'shoe-size', value: { size: 38 } } },
      'look it up': { name: 'recall', arguments: { query: 'size' } },
      'drop it': { name: 'forget', arguments: { key: 'shoe-size' } },
    };
    model.respondWith((body) => {
      const results = toolResults(body);
      if (results.length) return { kind: 'text', text: `tool said ${JSON.stringify(results[0].content)}` };
      // The task comes with its context after it.
      const task = Object.keys(script).find((asked) => lastUserMessage(body).startsWith(asked))!;
      return { kind: 'toolCalls', calls: [script[task]] };
    });
    try {
      const noted = await run(agent.body.id, 'note it', { user: 'cy' });
      expect(noted.body.error).toBeNull();
      expect(noted.body).toMatchObject({ status: 'succeeded', toolCalls: [{ tool: 'memory:remember' }] });
      const item = (await app.request('GET', '/v1/memory/users%2Fcy/shoe-size')).body;
      expect(item).toMatchObject({ value: { size: 38 }, version: 1, source: { runId: noted.body.id } });
      const found = await run(agent.body.id, 'look it up', { user: 'cy' });
      expect(found.body.toolCalls[0].output).toEqual([
        { key: 'shoe-size', value: { size: 38 }, score: expect.any(Number) },
      ]);
      const dropped = await run(agent.body.id, 'drop it', { user: 'cy' });
      expect(dropped.body.toolCalls[0].output).toEqual({ forgotten: 'shoe-size' });
      expectProblem(await app.request('GET', '/v1/memory/users%2Fcy/shoe-size'), 404);
      const again = await run(agent.body.id, 'drop it', { user: 'cy' });
      expect(again.body.toolCalls[0].error).toContain('nothing is remembered as shoe-size');
      // Another user's runs work on their own namespace.
      await run(agent.body.id, 'note it', { user: 'dee' });
      expect((await app.request('GET', '/v1/memory/users%2Fdee')).body.items.map((i: any) => i.key)).toEqual([
        'shoe-size',
      ]);
      expect((await app.request('GET', '/v1/memory/users%2Fcy')).body.items).toEqual([]);
    } finally {
      model.respondWith(() => ({ kind: 'text', text: 'noted' }));
    }
  });

  it('refuses a namespace that is no template of one, and recall without a namespace', async () => {
    const bad = async (memoryField: object, path: string) => {
      const answer = await app.request('POST', '/v1/agents', {
        name: 'x',
        model: 'openai-compatible/m',
        memory: memoryField,
      });
      expectProblem(answer, 400);
      expect(answer.body.errors.map((e: any) => e.path)).toContain(path);
    };
    await bad({ maxMessages: 5, namespace: 'users/{{input.x}}' }, 'memory.namespace');
    await bad({ maxMessages: 5, namespace: 'a//b' }, 'memory.namespace');
    await bad({ maxMessages: 5, recall: { limit: 2 } }, 'memory.recall');
    await bad({ maxMessages: 5, tools: true }, 'memory.tools');
    await bad({ maxMessages: 5, namespace: 'users', tools: 'yes' }, 'memory.tools');
    await bad({ maxMessages: 5, namespace: 'users', recall: { limit: 0 } }, 'memory.recall.limit');
  });
});
