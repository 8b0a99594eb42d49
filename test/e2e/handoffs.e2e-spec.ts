import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Handoffs, run for real: the triage agent's model calls `transfer_to_<name>`, and the run goes on with that agent.
 * The models are a scripted OpenAI-compatible server over HTTP (a test double for a paid provider) answering by the
 * model each request names; what each agent was sent is checked against what that server received.
 */
describe('handoffs', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  let replies: Record<string, (body: ChatCompletionsBody) => ScriptedReply>;

  const sentTo = (name: string) => model.requests.filter((body) => body.model === name);
  const userTexts = (body: ChatCompletionsBody) =>
    body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      const reply = replies[body.model];
      return reply ? reply(body) : { kind: 'error', status: 400, message: `no script for ${body.model}` };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', RUN_MAX_HANDOFFS: '2' },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => model.requests.splice(0));

  async function createAgent(body: Record<string, unknown>) {
    const created = await app.request('POST', '/v1/agents', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  /** A triage agent handing off to billing with `input`; billing answers with what it was sent. */
  async function desk(input?: 'all' | 'last_user' | 'summary') {
    const suffix = Math.random().toString(36).slice(2, 8);
    const billing = await createAgent({
      name: `billing-${suffix}`,
      model: 'openai-compatible/billing',
      instructions: 'You handle invoices.',
      description: 'Invoices and refunds.',
    });
    const handoff = input ? { agent: billing.name, input } : billing.name;
    const triage = await createAgent({
      name: `triage-${suffix}`,
      model: 'openai-compatible/triage',
      tools: ['current_time'],
      handoffs: [handoff],
    });
    const transfer = `transfer_to_billing-${suffix}`;
    replies = {
      triage: (body) =>
        hasToolResult(body)
          ? {
              kind: 'toolCalls',
              calls: [{ id: 'call_transfer', name: transfer, arguments: { summary: 'Wants a refund.' } }],
            }
          : { kind: 'toolCalls', calls: [{ id: 'call_time', name: 'current_time', arguments: {} }] },
      billing: () => ({ kind: 'text', text: 'Refund on its way.' }),
    };
    return { billing, triage, transfer };
  }

  const run = (agentId: string, task = 'My invoice is wrong', extra = {}) =>
    app.request('POST', `/v1/agents/${agentId}/run`, { task, ...extra }, { prefer: 'wait=10' });

  it('goes on with the agent handed to, sent the whole conversation (input "all", the default)', async () => {
    const { billing, triage, transfer } = await desk();
    // The model sees the handoff as a tool, described by the agent it hands to.
    const ran = await run(triage.id);
    const offered = sentTo('triage')[0].tools!.find((t) => t.function.name === transfer)!;
    expect(offered.function.description).toContain('Invoices and refunds.');
    expect(ran.body).toMatchObject({ status: 'succeeded', output: 'Refund on its way.', answeredBy: billing.id });
    expect(ran.body.handoffs).toEqual([
      {
        from: triage.id,
        fromName: triage.name,
        to: billing.id,
        toName: billing.name,
        input: 'all',
        at: expect.any(String),
      },
    ]);
    // Billing got its own instructions and tools, and the conversation: the task, the time call, the transfer.
    const [sent] = sentTo('billing');
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You handle invoices.' });
    expect(userTexts(sent)).toEqual(['My invoice is wrong']);
    expect(toolResults(sent).map((r) => r.toolCallId)).toEqual(['call_time', 'call_transfer']);
    expect(sent.tools ?? []).toEqual([]);
    // The event holds exactly the messages billing was sent (besides its system prompt).
    const events = await app.request('GET', `/v1/agents/${triage.id}/runs/${ran.body.id}/events`);
    const handedOff = events.body.events.find((e: { type: string }) => e.type === 'AgentRunHandedOff');
    expect(handedOff.data.messages).toHaveLength(sent.messages.length - 1);
    // The transfer is the handoff, not a tool call of the run.
    expect(ran.body.toolCalls.map((c: { tool: string }) => c.tool)).toEqual(['current_time']);
  });

  it('sends only the task with input "last_user"', async () => {
    const { triage } = await desk('last_user');
    const ran = await run(triage.id);
    expect(ran.body.status).toBe('succeeded');
    const [sent] = sentTo('billing');
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(userTexts(sent)).toEqual(['My invoice is wrong']);
  });

  it('sends the task and the handing-off model’s summary with input "summary"', async () => {
    const { triage, transfer } = await desk('summary');
    const ran = await run(triage.id);
    expect(ran.body.status).toBe('succeeded');
    const offered = sentTo('triage')[0].tools!.find((t) => t.function.name === transfer)!;
    expect(offered.function.parameters).toMatchObject({ required: ['summary'] });
    const [sent] = sentTo('billing');
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(userTexts(sent)[0]).toMatch(/^My invoice is wrong\n\nWhat happened so far, .*\nWants a refund\.$/s);
  });

  it("begins a thread's next turn with the agent that answered last, unless the request names one", async () => {
    const { billing, triage } = await desk();
    const thread = await app.request('POST', '/v1/threads', { agentId: triage.id });
    expect(thread.status).toBe(201);
    const turn = (body: Record<string, unknown>) =>
      app.request('POST', `/v1/threads/${thread.body.id}/runs`, body, { prefer: 'wait=10' });
    expect((await turn({ task: 'My invoice is wrong' })).body.answeredBy).toBe(billing.id);

    model.requests.splice(0);
    const second = await turn({ task: 'And the second one?' });
    expect(second.body).toMatchObject({ status: 'succeeded', agentId: triage.id, startAgentId: billing.id });
    expect(model.requests.map((body) => body.model)).toEqual(['billing']);
    // Billing sees the thread so far.
    expect(userTexts(model.requests[0])).toEqual(['My invoice is wrong', 'And the second one?']);

    model.requests.splice(0);
    const asked = await turn({ task: 'Back to the start', agentId: triage.id });
    expect(asked.body).toMatchObject({ status: 'succeeded', startAgentId: null });
    expect(model.requests[0].model).toBe('triage');
    expectProblem(await turn({ task: 'x', agentId: 'agent_00000000000000000000000000' }), 422);
  });

  it('bounds a chain of handoffs by RUN_MAX_HANDOFFS: past it, a transfer is the tool error handoffs_exceeded', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const ping = await createAgent({ name: `ping-${suffix}`, model: 'openai-compatible/ping' });
    const pong = await createAgent({ name: `pong-${suffix}`, model: 'openai-compatible/pong', handoffs: [ping.name] });
    await app.request(
      'PATCH',
      `/v1/agents/${ping.id}`,
      { handoffs: [pong.name] },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    const bounce =
      (to: string) =>
      (body: ChatCompletionsBody): ScriptedReply =>
        toolResults(body).some((r) => String(r.content).includes('handoffs_exceeded'))
          ? { kind: 'text', text: 'I will answer myself.' }
          : {
              kind: 'toolCalls',
              calls: [{ id: `call_${body.messages.length}`, name: `transfer_to_${to}-${suffix}`, arguments: {} }],
            };
    replies = { ping: bounce('pong'), pong: bounce('ping') };
    const ran = await run(ping.id, 'Bounce');
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.handoffs.map((h: { toName: string }) => h.toName)).toEqual([pong.name, ping.name]);
    expect(ran.body.answeredBy).toBe(ping.id);
    expect(ran.body.output).toBe('I will answer myself.');
  });

  it('refuses handoffs to no active agent, to the agent itself, or named twice', async () => {
    const { billing } = await desk();
    const name = `x-${Math.random()}`;
    const refused = await app.request('POST', '/v1/agents', {
      name,
      model: 'openai-compatible/m',
      handoffs: ['nobody-here', name, billing.name, { agent: billing.name, input: 'everything' }],
    });
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([
      { path: 'handoffs[0]', message: expect.stringContaining('No active agent is named "nobody-here"') },
      { path: 'handoffs[1]', message: 'an agent cannot hand off to itself' },
      { path: 'handoffs[3].input', message: expect.stringContaining('all, last_user, summary') },
      { path: 'handoffs[3].agent', message: expect.stringContaining('named twice') },
    ]);
  });
});
