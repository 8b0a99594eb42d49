import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { SseMessage, readSse } from '../support/sse-client';
import { TestApp, startTestApp } from '../support/test-app';

/** The model calls current_time once (its answer a few pieces of text), then answers. */
function timeTeller(body: ChatCompletionsBody) {
  if (hasToolResult(body)) return { kind: 'text' as const, text: ['It is ', 'noon ', 'now.'] };
  return { kind: 'toolCalls' as const, calls: [{ id: 'call_time', name: 'current_time', arguments: {} }] };
}

/**
 * RUN_STREAMING=watched: a model call streams only while someone follows its run, or for a thread's turn; any
 * other is one request and one answer. Against a scripted OpenAI-compatible server (a test double for a provider).
 */
describe('run streaming when watched', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(timeTeller);
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_STREAMING: 'watched' } });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  const streamed = () => model.requests.map((body) => body.stream ?? false);

  async function createAgent(body: Record<string, unknown> = {}): Promise<string> {
    const created = await app.request('POST', '/v1/agents', {
      name: `agent ${Math.random()}`,
      model: 'openai-compatible/m',
      tools: ['current_time'],
      ...body,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('makes the calls of a run no one follows without streaming, and records the same run', async () => {
    const agentId = await createAgent();
    const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'time?' }, { prefer: 'wait=10' });

    expect(ran.body).toMatchObject({ status: 'succeeded', output: 'It is noon now.', attempts: 2 });
    expect(ran.body.toolCalls).toEqual([expect.objectContaining({ id: 'call_time', tool: 'current_time' })]);
    expect(streamed()).toEqual([false, false]);
  });

  it('streams the calls made while someone follows the run', async () => {
    const agentId = await createAgent({ approvalRequired: ['current_time'] });
    const waiting = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'time?' }, { prefer: 'wait=10' });
    expect(waiting.body.status).toBe('waiting');
    // Someone follows the waiting run; once the stream is open, the call is approved and the run goes on.
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const stream = readSse(`${app.url}/v1/agents/${agentId}/runs/${waiting.body.id}/stream`, {
      onMessage: () => opened(),
    });
    await isOpen;
    const decided = await app.request('POST', `/v1/agents/${agentId}/runs/${waiting.body.id}/approvals`, {
      decisions: [{ toolCallId: 'call_time', decision: 'approve' }],
    });
    expect(decided.status).toBe(202);

    const { messages } = await stream;
    const deltas = messages.filter((m: SseMessage) => m.event === 'delta').map((m: SseMessage) => m.data.text);
    expect(deltas).toEqual(['It is ', 'noon ', 'now.']);
    expect(messages.at(-1)).toEqual({ event: 'end', data: expect.objectContaining({ output: 'It is noon now.' }) });
    expect(streamed()).toEqual([false, true]);
  });

  it("streams a thread's turns, so that a cancel can keep what they had written", async () => {
    const agentId = await createAgent();
    const thread = await app.request('POST', '/v1/threads', { agentId });
    expect(thread.status).toBe(201);

    const turn = await app.request(
      'POST',
      `/v1/threads/${thread.body.id}/runs`,
      { task: 'time?' },
      { prefer: 'wait=10' },
    );

    expect(turn.body).toMatchObject({ status: 'succeeded', output: 'It is noon now.' });
    await eventually(async () => expect(streamed()).toEqual([true, true]));
  });
});
