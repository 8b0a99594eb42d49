import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

const THREADS = 10;
const TURNS = 5;

/**
 * A run on a thread answered 200 (`Prefer: wait`) has its turn in the thread's messages: a read right after it
 * shows the task and the answer, as a read right after any other write shows it.
 */
describe("a thread's turn is readable once its run is answered", () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => ({ kind: 'text', text: `ANSWER ${lastUserMessage(body)}` }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '10' } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  it(`on ${THREADS} threads at once, ${TURNS} turns each, through both routes`, async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'echo', model: 'openai-compatible/m' });
    const threads = await Promise.all(
      Array.from({ length: THREADS }, async () => {
        const created = await app.request('POST', '/v1/threads', { agentId: agent.body.id });
        return created.body.id as string;
      }),
    );
    const missing: string[] = [];
    await Promise.all(
      threads.map(async (threadId, t) => {
        for (let turn = 0; turn < TURNS; turn++) {
          const task = `thread ${t} turn ${turn}`;
          // The agents route takes a thread too: every other turn goes through it.
          const run =
            turn % 2 === 0
              ? await app.request('POST', `/v1/threads/${threadId}/runs`, { task }, { prefer: 'wait=10' })
              : await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task, threadId }, { prefer: 'wait=10' });
          expect(run.status).toBe(200);
          const messages = await app.request('GET', `/v1/threads/${threadId}/messages?limit=100`);
          const answered = messages.body.messages.some(
            (m: { role: string; content: string; runId: string }) =>
              m.role === 'assistant' && m.runId === run.body.id && m.content === `ANSWER ${task}`,
          );
          const thread = await app.request('GET', `/v1/threads/${threadId}`);
          if (!answered || thread.body.messageCount !== 2 * (turn + 1) || thread.body.status !== 'idle') {
            missing.push(`${task}: ${messages.body.messages.length} messages, ${thread.body.status}`);
          }
        }
      }),
    );
    expect(missing).toEqual([]);
  });
});
