import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
  systemMessage,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * `memory.summarize` on a thread, against the scripted model server (a test double): 30 turns (60 messages) with
 * `maxMessages: 10`, the first telling a fact; the summarizer (the agent's own model, told it keeps a summary) keeps
 * the facts it is given, so the 31st turn still sees the first turn's fact, which left the window long before.
 */
describe('thread summaries', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      if (systemMessage(body).startsWith('You keep the running summary')) {
        const facts = lastUserMessage(body).match(/my name is \w+/gi) ?? [];
        return { kind: 'text', text: `Known: ${[...new Set(facts)].join('; ') || 'nothing yet'}` };
      }
      return { kind: 'text', text: `ok ${lastUserMessage(body).length}` };
    });
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  it("keeps the first turn's fact after 60 messages with maxMessages: 10, recorded on the thread", async () => {
    const memory = { maxMessages: 10, summarize: true };
    const agent = await app.request('POST', '/v1/agents', { name: 'chatty', model: 'openai-compatible/m', memory });
    expect(agent.body.memory).toEqual(memory);
    const thread = (await app.request('POST', '/v1/threads', { agentId: agent.body.id })).body.id;
    const send = (task: string) => app.request('POST', `/v1/threads/${thread}/runs`, { task }, { prefer: 'wait=10' });
    expect((await send('Hello, my name is Ada')).body.status).toBe('succeeded');
    for (let i = 1; i < 30; i++) expect((await send(`small talk number ${i}`)).body.status).toBe('succeeded');
    expect((await app.request('GET', `/v1/threads/${thread}`)).body.messageCount).toBe(60);

    const last = await send('What is my name?');
    expect(last.body.status).toBe('succeeded');
    const asked = model.requests[model.requests.length - 1];
    const system = asked.messages.filter((m) => m.role === 'system').map((m) => String(m.content));
    expect(system).toContainEqual(expect.stringContaining('my name is Ada'));
    // The window itself holds only the last 10 messages: Ada is in the summary, not in them.
    const window = asked.messages.filter((m) => m.role !== 'system');
    expect(window).toHaveLength(11);
    expect(window.map((m) => String(m.content)).join(' ')).not.toContain('Ada');
    const events = (await app.request('GET', `/v1/threads/${thread}/events?limit=200`)).body.events;
    const summaries = events.filter((e: any) => e.type === 'ThreadSummarized');
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[summaries.length - 1].data).toMatchObject({
      throughSeq: 49,
      summary: expect.stringContaining('Ada'),
    });
    expect((await app.request('GET', `/v1/threads/${thread}`)).body.summary).toContain('my name is Ada');
    // The summarizer's calls are counted to the runs that made them.
    const summarizing = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${summaries[0].data.runId}`);
    expect(summarizing.body.usage.inputTokens).toBeGreaterThan(0);
  });
});
