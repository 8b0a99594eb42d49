import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { readSse } from '../support/sse-client';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * A second message while a thread is busy (`multitask`), against the scripted model server (a test double): the
 * first turn, "story", streams its first words at once and the rest only after a long pause, so it is surely busy
 * (and has said something) when the second message comes.
 */
describe('threads: multitask', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  let agentId: string;
  let threadId: string;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer((body) =>
      lastUserMessage(body) === 'story'
        ? { kind: 'text', text: ['Once upon', ' a time', ' there was'], chunkDelayMs: 30_000 }
        : { kind: 'text', text: `ANSWER ${lastUserMessage(body).toUpperCase()}` },
    );
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '4' } });
    const agent = await app.request('POST', '/v1/agents', { name: 'teller', model: 'openai-compatible/m' });
    agentId = agent.body.id;
    threadId = (await app.request('POST', '/v1/threads', { agentId })).body.id;
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  const send = (task: string, multitask?: string) =>
    app.request(
      'POST',
      `/v1/threads/${threadId}/runs`,
      { task, ...(multitask && { multitask }) },
      { prefer: 'wait=10' },
    );

  /** The first turn, once its model has written its first words. */
  async function busyTurn(): Promise<string> {
    const story = await app.request('POST', `/v1/threads/${threadId}/runs`, { task: 'story' });
    await readSse(`${app.url}/v1/agents/${agentId}/runs/${story.body.id}/stream`, {
      stopWhen: (message) => message.event === 'delta',
    });
    return story.body.id;
  }

  const messages = async () =>
    (await app.request('GET', `/v1/threads/${threadId}/messages`)).body.messages.map((m: any) => ({
      role: m.role,
      content: m.content,
      ...(m.interrupted && { interrupted: true }),
    }));

  it('enqueue (the default) runs the second message after the first; a bad multitask is a 400', async () => {
    model.respondWith((body) => ({
      kind: 'text',
      text: `ANSWER ${lastUserMessage(body).toUpperCase()}`,
      delayMs: 200,
    }));
    const first = await app.request('POST', `/v1/threads/${threadId}/runs`, { task: 'one' });
    const second = await send('two', 'enqueue');
    expect(second.body).toMatchObject({ status: 'succeeded', multitask: null, supersededBy: null });
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${first.body.id}`)).body.status).toBe('succeeded');
    expect(await messages()).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'ANSWER ONE' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'ANSWER TWO' },
    ]);
    const bad = await send('three', 'replace');
    expectProblem(bad, 400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'multitask' })]);
    expect((await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs).toHaveLength(2);
  });

  it('reject answers 409 thread-busy while a turn is going, records nothing, and takes the message once idle', async () => {
    const story = await busyTurn();
    const refused = await send('hello', 'reject');
    expectProblem(refused, 409, 'thread-busy');
    expect(refused.body.detail).toContain(story);
    expect((await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs.map((r: any) => r.id)).toEqual([story]);
    // Two at once: still refused, both.
    const both = await Promise.all([send('a', 'reject'), send('b', 'reject')]);
    expect(both.map((r) => r.status)).toEqual([409, 409]);

    await app.request('POST', `/v1/agents/${agentId}/runs/${story}/cancel`);
    await eventually(async () =>
      expect((await app.request('GET', `/v1/threads/${threadId}`)).body.status).toBe('idle'),
    );
    const taken = await send('hello', 'reject');
    expect(taken.body).toMatchObject({ status: 'succeeded', output: 'ANSWER HELLO' });
    // A plain cancel keeps nothing of the cancelled turn.
    expect(await messages()).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'ANSWER HELLO' },
    ]);
  });

  it('interrupt cancels the going turn, keeps what it had said marked interrupted, and the model sees it', async () => {
    const story = await busyTurn();
    const next = await send('stop, tell me a joke', 'interrupt');
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({
      status: 'succeeded',
      output: 'ANSWER STOP, TELL ME A JOKE',
      multitask: { strategy: 'interrupt', runIds: [story] },
    });
    const cut = (await app.request('GET', `/v1/agents/${agentId}/runs/${story}`)).body;
    expect(cut).toMatchObject({ status: 'cancelled', supersededBy: { runId: next.body.id, strategy: 'interrupt' } });
    expect(await messages()).toEqual([
      { role: 'user', content: 'story' },
      { role: 'assistant', content: 'Once upon', interrupted: true },
      { role: 'user', content: 'stop, tell me a joke' },
      { role: 'assistant', content: 'ANSWER STOP, TELL ME A JOKE' },
    ]);
    const seen = model.requests[model.requests.length - 1].messages.map((m) => m.content);
    expect(seen.slice(-3)).toEqual(['story', 'Once upon [interrupted]', 'stop, tell me a joke']);
    const events = (await app.request('GET', `/v1/agents/${agentId}/runs/${story}/events`)).body.events;
    expect(events.find((e: any) => e.type === 'AgentRunCancelled').data).toMatchObject({
      partialOutput: 'Once upon',
      supersededBy: { runId: next.body.id, strategy: 'interrupt' },
    });
  });

  it('rollback cancels the going turn and a queued one, and keeps nothing of them in the thread', async () => {
    const story = await busyTurn();
    const queued = (await app.request('POST', `/v1/threads/${threadId}/runs`, { task: 'queued' })).body.id;
    const next = await send('start over', 'rollback');
    expect(next.body).toMatchObject({
      status: 'succeeded',
      multitask: { strategy: 'rollback', runIds: [story, queued] },
    });
    for (const runId of [story, queued]) {
      const run = (await app.request('GET', `/v1/agents/${agentId}/runs/${runId}`)).body;
      expect(run).toMatchObject({ status: 'cancelled', supersededBy: { runId: next.body.id, strategy: 'rollback' } });
    }
    expect(await messages()).toEqual([
      { role: 'user', content: 'start over' },
      { role: 'assistant', content: 'ANSWER START OVER' },
    ]);
    // The model was never asked the queued turn.
    expect(model.requests.map((r) => lastUserMessage(r))).toEqual(['story', 'start over']);
    // On an idle thread, interrupt and rollback cancel nothing.
    const calm = await send('and then', 'interrupt');
    expect(calm.body).toMatchObject({ status: 'succeeded', multitask: null });
  });
});
