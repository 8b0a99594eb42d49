import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

/**
 * An agent's `fallbackModels`, run for real: the AI SDK providers call a scripted OpenAI-compatible server (a test
 * double for a paid provider) over HTTP, which answers by the model each request names. The primary model fails as
 * providers do; the run goes on with the next model, with the same messages, and records each model it called.
 */
const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('model fallbacks', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  /** What the primary model answers; the backup answers "from backup". */
  let primary: (body: ChatCompletionsBody) => ScriptedReply;

  const PRIMARY = 'openai-compatible/primary';
  const BACKUP = 'openai-compatible/backup';
  const sentTo = (name: string) => model.requests.filter((body) => body.model === name);

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) =>
      body.model === 'primary'
        ? primary(body)
        : { kind: 'text', text: 'from backup', usage: { inputTokens: 1000, outputTokens: 100 } },
    );
    const dataDir = temporaryDataDir();
    const prices = join(dataDir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ [PRIMARY]: { input: 1, output: 1 }, [BACKUP]: { input: 3, output: 15 } }));
    app = await startTestApp({
      dataDir,
      env: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        MODEL_RETRY_BASE_DELAY_MS: '1',
        MODEL_MAX_RETRIES: '2',
        MODEL_PRICES_FILE: prices,
        RATE_LIMIT: '0',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => model.requests.splice(0));

  async function runWithFallback(extra: Record<string, unknown> = {}) {
    const created = await app.request('POST', '/v1/agents', {
      name: `agent-${Math.random()}`,
      model: PRIMARY,
      fallbackModels: [BACKUP],
      ...extra,
    });
    expect(created.status).toBe(201);
    const ran = await app.request('POST', `/v1/agents/${created.body.id}/run`, { task: 'Go' }, { prefer: 'wait=10' });
    expect(ran.status).toBe(200);
    return ran.body;
  }

  it.each([
    [500, 'provider_error'],
    [429, 'provider_error'],
  ])('goes on with the next model after a %i, once the retries are spent', async (status, code) => {
    primary = () => ({ kind: 'error', status, message: 'down for now', retryAfter: '0' });
    const run = await runWithFallback();
    expect(run).toMatchObject({ status: 'succeeded', output: 'from backup', answeredModel: BACKUP, model: PRIMARY });
    // Two retries and the first request on the primary, then one on the backup, with the same messages.
    expect(sentTo('primary')).toHaveLength(3);
    expect(sentTo('backup')).toHaveLength(1);
    expect(sentTo('backup')[0].messages).toEqual(sentTo('primary')[0].messages);
    expect(run.attempts).toBe(4);
    expect(run.modelAttempts).toEqual([
      {
        model: PRIMARY,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        error: { code, status, message: expect.stringContaining('down for now') },
      },
      // $3 per million input tokens and $15 per million output: 0.003 + 0.0015.
      { model: BACKUP, usage: { inputTokens: 1000, outputTokens: 100, costUsd: 0.0045 } },
    ]);
    expect(run.usage).toEqual({ inputTokens: 1000, outputTokens: 100, costUsd: 0.0045 });
  });

  it('goes on with the next model when the first one names a provider not configured here', async () => {
    const run = await runWithFallback({ model: 'anthropic/claude-3-5-haiku-latest' });
    expect(run).toMatchObject({ status: 'succeeded', answeredModel: BACKUP, attempts: 1 });
    expect(run.modelAttempts[0]).toMatchObject({
      model: 'anthropic/claude-3-5-haiku-latest',
      error: { code: 'provider_not_configured' },
    });
  });

  it("does not fall back after a 400, the request's own fault: the run fails as it would alone", async () => {
    primary = () => ({ kind: 'error', status: 400, message: 'context too long', type: 'invalid_request_error' });
    const run = await runWithFallback();
    expect(run).toMatchObject({
      status: 'failed',
      error: { code: 'provider_error', status: 400 },
      answeredModel: null,
    });
    expect(run.modelAttempts).toEqual([]);
    expect(sentTo('backup')).toHaveLength(0);
  });

  it('keeps the steps done when a later call fails: the tool is not called again, the backup gets its result', async () => {
    primary = (body) =>
      hasToolResult(body)
        ? { kind: 'error', status: 503, message: 'overloaded', retryAfter: '0' }
        : { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'UTC' } }] };
    const run = await runWithFallback({ tools: ['current_time'] });
    expect(run).toMatchObject({ status: 'succeeded', answeredModel: BACKUP });
    expect(run.toolCalls).toHaveLength(1);
    const [toBackup] = sentTo('backup');
    expect(toBackup.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(run.modelAttempts.map((attempt: { model: string }) => attempt.model)).toEqual([PRIMARY, BACKUP]);
  });

  it('counts each model its own tokens and cost in /metrics', async () => {
    primary = () => ({ kind: 'error', status: 502, message: 'bad gateway', retryAfter: '0' });
    const run = await runWithFallback();
    expect(run.status).toBe('succeeded');
    const text = await (await fetch(`${app.url}/metrics`)).text();
    const labels = (name: string) => `provider="openai-compatible",model="${name}",agent="${run.agentId}"`;
    expect(text).toContain(`model_tokens_total{${labels(BACKUP)},direction="input"} 1000`);
    expect(text).toContain(`model_tokens_total{${labels(PRIMARY)},direction="input"} 0`);
  });

  it('takes fallbackModels on create and PATCH, checked as the model is', async () => {
    const bad = await app.request('POST', '/v1/agents', { name: 'bad', model: PRIMARY, fallbackModels: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'fallbackModels', message: expect.stringContaining('provider/model') }]);
    const unknown = await app.request('POST', '/v1/agents', {
      name: 'unknown',
      model: PRIMARY,
      fallbackModels: ['acme/big'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe('fallbackModels[0]');
    const repeated = await app.request('POST', '/v1/agents', {
      name: 'repeated',
      model: PRIMARY,
      fallbackModels: [BACKUP, BACKUP],
    });
    expect(repeated.status).toBe(400);

    const created = await app.request('POST', '/v1/agents', { name: 'plain', model: PRIMARY });
    expect(created.body.fallbackModels).toEqual([]);
    const patched = await app.request(
      'PATCH',
      `/v1/agents/${created.body.id}`,
      { fallbackModels: [BACKUP] },
      MERGE_PATCH,
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ fallbackModels: [BACKUP], version: 2 });
    const cleared = await app.request('PATCH', `/v1/agents/${created.body.id}`, { fallbackModels: null }, MERGE_PATCH);
    expect(cleared.body).toMatchObject({ fallbackModels: [], version: 3 });
  });
});
