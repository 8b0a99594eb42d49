import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * An agent's guardrails, run for real: the service's AI SDK providers call a scripted OpenAI-compatible server (a
 * test double for a paid provider) over HTTP, which records every request it gets, so a test can say what reached
 * the model and what did not.
 */
describe('guardrails', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  let reply: (body: ChatCompletionsBody) => ScriptedReply;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => reply(body));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0' } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => {
    model.requests.splice(0);
    reply = (body) => ({ kind: 'text', text: `echo: ${lastUserMessage(body)}` });
  });

  async function run(guardrails: Record<string, unknown>, task: string, extra: Record<string, unknown> = {}) {
    const created = await app.request('POST', '/v1/agents', {
      name: `guarded-${Math.random()}`,
      model: 'openai-compatible/m',
      guardrails,
      ...extra,
    });
    expect(created.status).toBe(201);
    const ran = await app.request('POST', `/v1/agents/${created.body.id}/run`, { task }, { prefer: 'wait=10' });
    expect(ran.status).toBe(200);
    return ran.body;
  }

  const sentToModel = () => JSON.stringify(model.requests);

  it('redacts an email in the task: it never reaches the model nor the log, and the verdict says where, not what', async () => {
    const ran = await run({ input: [{ type: 'pii', kinds: ['email'], action: 'redact' }] }, 'Write to bob@example.com');
    expect(ran.status).toBe('succeeded');
    expect(sentToModel()).not.toContain('bob@example.com');
    expect(lastUserMessage(model.requests[0])).toBe('Write to [redacted:email]');
    expect(ran.guardrails).toEqual([
      expect.objectContaining({
        stage: 'input',
        check: 0,
        type: 'pii',
        action: 'redact',
        verdict: 'redacted',
        spans: [{ start: 9, end: 24, kind: 'email' }],
      }),
    ]);
    // The run records the task as the check left it, in the commit that queues it.
    expect(ran.task).toBe('Write to [redacted:email]');
    const events = (await app.request('GET', `/v1/agents/${ran.agentId}/runs/${ran.id}/events`)).body.events;
    expect(events.slice(0, 2).map((event: { type: string }) => event.type)).toEqual([
      'AgentRunQueued',
      'AgentRunGuardrailChecked',
    ]);
    expect(events.filter((event: { type: string }) => event.type === 'AgentRunGuardrailChecked')).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('bob@');
    const log = await app.request('GET', '/v1/events');
    expect(log.status).toBe(200);
    expect(log.body.events.length).toBeGreaterThan(2);
    expect(JSON.stringify(log.body)).not.toContain('bob@');
  });

  it('blocks a task before any model call: the run fails with guardrail_blocked', async () => {
    const ran = await run(
      { input: [{ type: 'pattern', pattern: 'drop\\s+table', flags: 'i', action: 'block' }] },
      'DROP  TABLE x',
    );
    expect(ran).toMatchObject({ status: 'failed', error: { code: 'guardrail_blocked' }, output: null });
    expect(ran.error.message).toContain('input guardrail 0 (pattern)');
    expect(model.requests).toHaveLength(0);
  });

  it('runs a hostile pattern on 50,000 characters in bounded time', async () => {
    const started = Date.now();
    const ran = await run(
      { input: [{ type: 'pattern', pattern: '(a+)+$', action: 'block' }] },
      `${'a'.repeat(50_000)}b`,
    );
    expect(ran.status).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("redacts or withholds a tool's result before the model sees it", async () => {
    reply = (body) =>
      toolResults(body).length
        ? { kind: 'text', text: 'done' }
        : { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] };
    const redacted = await run(
      { toolResults: [{ type: 'pattern', pattern: '\\d{4}-\\d{2}-\\d{2}', action: 'redact' }] },
      'What day is it?',
      { tools: ['current_time'] },
    );
    expect(redacted.status).toBe('succeeded');
    expect(JSON.stringify(toolResults(model.requests[1]))).toContain('[redacted:pattern]');
    expect(JSON.stringify(toolResults(model.requests[1]))).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(JSON.stringify(redacted.toolCalls[0].output)).toContain('[redacted:pattern]');
    expect(redacted.guardrails[0]).toMatchObject({
      stage: 'toolResults',
      verdict: 'redacted',
      callId: redacted.toolCalls[0].id,
    });

    model.requests.splice(0);
    const blocked = await run({ toolResults: [{ type: 'max_length', chars: 5, action: 'block' }] }, 'What day is it?', {
      tools: ['current_time'],
    });
    expect(blocked.status).toBe('succeeded');
    expect(JSON.parse(String(toolResults(model.requests[1])[0].content))).toMatchObject({ blocked: true });
  });

  it('redacts, warns about or blocks the answer', async () => {
    reply = () => ({ kind: 'text', text: 'Card 4111 1111 1111 1111 on file' });
    const redacted = await run({ output: [{ type: 'pii', kinds: ['card'], action: 'redact' }] }, 'Card?');
    expect(redacted).toMatchObject({ status: 'succeeded', output: 'Card [redacted:card] on file' });

    const warned = await run({ output: [{ type: 'pii', kinds: ['card'], action: 'warn' }] }, 'Card?');
    expect(warned.output).toBe('Card 4111 1111 1111 1111 on file');
    expect(warned.guardrails[0]).toMatchObject({ verdict: 'warned', reason: 'found card (1)' });

    const blocked = await run({ output: [{ type: 'max_length', chars: 10, action: 'block' }] }, 'Card?');
    expect(blocked).toMatchObject({ status: 'failed', output: null, error: { code: 'guardrail_blocked' } });
    // The tokens the blocked answer took are counted all the same.
    expect(blocked.usage).toEqual(expect.objectContaining({ inputTokens: expect.any(Number) }));
    expect(blocked.usage.inputTokens + blocked.usage.outputTokens).toBeGreaterThan(0);
  });

  it('asks a judge agent: it sees the text, its structured answer decides, and its tokens count to the run', async () => {
    const judge = (
      await app.request('POST', '/v1/agents', {
        name: `judge-${Math.random()}`,
        model: 'openai-compatible/judge',
        instructions: 'You keep competitor names out of answers.',
      })
    ).body;
    const isJudge = (body: ChatCompletionsBody) => body.model === 'judge';
    reply = (body) => {
      if (!isJudge(body))
        return { kind: 'text', text: 'Try Acme instead', usage: { inputTokens: 10, outputTokens: 5 } };
      const verdict = lastUserMessage(body).includes('Acme')
        ? { allow: false, reason: 'names a competitor' }
        : { allow: true, reason: 'nothing to object to' };
      return { kind: 'text', text: JSON.stringify(verdict), usage: { inputTokens: 7, outputTokens: 3 } };
    };
    const check = (action: string) => [{ type: 'agent', agent: judge.name, action }];

    const blocked = await run({ output: check('block') }, 'Which tool?');
    expect(blocked).toMatchObject({ status: 'failed', output: null, error: { code: 'guardrail_blocked' } });
    expect(blocked.guardrails[0]).toMatchObject({
      type: 'agent',
      verdict: 'blocked',
      reason: 'names a competitor',
      spans: [{ start: 0, end: 'Try Acme instead'.length, kind: 'agent' }],
    });
    const asked = model.requests.filter(isJudge);
    expect(asked).toHaveLength(1);
    expect(lastUserMessage(asked[0])).toContain('Try Acme instead');
    expect(JSON.stringify(asked[0].messages)).toContain('You keep competitor names out of answers.');
    expect(blocked.usage).toMatchObject({ inputTokens: 17, outputTokens: 8 });

    const passed = await run({ input: check('block') }, 'Hello');
    expect(passed.status).toBe('succeeded');
    expect(passed.guardrails[0]).toMatchObject({ verdict: 'passed', reason: 'nothing to object to', spans: [] });

    const redacted = await run({ output: check('redact') }, 'Which tool?');
    expect(redacted).toMatchObject({ status: 'succeeded', output: '[redacted:agent]' });

    // An input's judges are asked after its other checks, on the text as they left it.
    model.requests.splice(0);
    const both = [{ type: 'pii', kinds: ['email'], action: 'redact' }, ...check('warn')];
    const warned = await run({ input: both }, 'Mail ann@example.org about Acme');
    expect(warned.guardrails.map((v: { type: string; verdict: string }) => [v.type, v.verdict])).toEqual([
      ['pii', 'redacted'],
      ['agent', 'warned'],
    ]);
    expect(lastUserMessage(model.requests.filter(isJudge)[0])).toContain('Mail [redacted:email] about Acme');
    expect(sentToModel()).not.toContain('ann@example.org');

    const unknown = await app.request('POST', '/v1/agents', {
      name: 'judged-by-nobody',
      model: 'openai-compatible/m',
      guardrails: { input: [{ type: 'agent', agent: 'nobody', action: 'block' }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { path: 'guardrails.input[0].agent', message: 'No active agent is named "nobody" (GET /v1/agents lists them)' },
    ]);
  });

  it('refuses guardrails it cannot run, naming the field', async () => {
    const refused = async (guardrails: unknown) => {
      const answer = await app.request('POST', '/v1/agents', { name: 'bad', model: 'openai-compatible/m', guardrails });
      expect(answer.status).toBe(400);
      return answer.body.errors.map((error: { path: string }) => error.path);
    };
    expect(await refused({ input: [{ type: 'pattern', pattern: '(a)\\1', action: 'block' }] })).toEqual([
      'guardrails.input[0].pattern',
    ]);
    expect(await refused({ output: [{ type: 'pii', kinds: ['dna'], action: 'redact' }] })).toEqual([
      'guardrails.output[0].kinds',
    ]);
    expect(await refused({ output: [{ type: 'judge', action: 'shout' }] })).toEqual([
      'guardrails.output[0].action',
      'guardrails.output[0].type',
    ]);
    expect(await refused({ before: [] })).toEqual(['guardrails.before']);
  });
});
