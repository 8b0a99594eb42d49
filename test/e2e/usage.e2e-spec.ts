import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { TestClock } from '../support/test-clock';

/**
 * What runs cost: each run's `usage.costUsd` from the price table (built in, and MODEL_PRICES_FILE), the
 * projection behind GET /v1/usage, and the token and cost counters of /metrics. Runs execute for real against a
 * scripted OpenAI-compatible server (a test double for a paid provider) that reports the tokens it was told to.
 */
describe('usage and cost', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  const clock = new TestClock(new Date('2026-11-02T10:15:00.000Z'));

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      // The task says how many tokens the scripted provider reports.
      const task = JSON.stringify(body.messages);
      const big = task.includes('big');
      return {
        kind: 'text',
        text: 'ok',
        usage: big ? { inputTokens: 2000, outputTokens: 1000 } : { inputTokens: 100, outputTokens: 50 },
      };
    });
    const dataDir = temporaryDataDir();
    const prices = join(dataDir, 'prices.json');
    // $3 per million input tokens, $15 per million output; the built-in gpt-4o is overridden too.
    writeFileSync(
      prices,
      JSON.stringify({
        'openai-compatible/priced': { input: 3, output: 15 },
        'openai/gpt-4o': { input: 1, output: 1 },
      }),
    );
    app = await startTestApp({
      dataDir,
      clock,
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, MODEL_PRICES_FILE: prices, RATE_LIMIT: '0' },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  async function agent(name: string, modelId: string): Promise<string> {
    const created = await app.request('POST', '/v1/agents', { name, model: modelId, instructions: 'Be brief.' });
    expect(created.status).toBe(201);
    return created.body.id;
  }
  async function run(agentId: string, task: string) {
    const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('succeeded');
    return ran.body;
  }

  let priced: string;
  let free: string;

  it('gives a run of a priced model its cost, and one of an unpriced model none', async () => {
    priced = await agent('priced', 'openai-compatible/priced');
    free = await agent('free', 'openai-compatible/free');
    const cheap = await run(priced, 'small');
    // 100 × $3 + 50 × $15, per million tokens
    expect(cheap.usage).toEqual({ inputTokens: 100, outputTokens: 50, costUsd: 0.00105 });
    const big = await run(priced, 'big');
    expect(big.usage).toEqual({ inputTokens: 2000, outputTokens: 1000, costUsd: 0.021 });
    const unpriced = await run(free, 'small');
    expect(unpriced.usage).toEqual({ inputTokens: 100, outputTokens: 50 });
    // The cost is recorded: the run as the read models show it after the fact has it too.
    const read = await app.request('GET', `/v1/agents/${priced}/runs/${big.id}`);
    expect(read.body.usage.costUsd).toBe(0.021);
  });

  it('sums runs, tokens and cost by agent, by model and by day, over whole hours', async () => {
    clock.set('2026-11-03T09:30:00.000Z');
    await run(free, 'big');

    const all = await app.request('GET', '/v1/usage?groupBy=agent');
    expect(all.status).toBe(200);
    expect(all.body.totals).toEqual({
      runs: 4,
      inputTokens: 4200,
      outputTokens: 2100,
      costUsd: 0.02205,
      unpricedRuns: 2,
    });
    expect(all.body.from).toBeNull();
    expect(all.body.to).toBe('2026-11-03T10:00:00.000Z');
    expect(all.body.groups).toEqual([
      {
        key: priced,
        agentName: 'priced',
        runs: 2,
        inputTokens: 2100,
        outputTokens: 1050,
        costUsd: 0.02205,
        unpricedRuns: 0,
      },
      { key: free, agentName: 'free', runs: 2, inputTokens: 2100, outputTokens: 1050, costUsd: 0, unpricedRuns: 2 },
    ]);

    const byDay = await app.request('GET', '/v1/usage?groupBy=day&from=2026-11-01&to=2026-11-04');
    expect(byDay.body.groups.map((g: { key: string; runs: number }) => [g.key, g.runs])).toEqual([
      ['2026-11-02', 3],
      ['2026-11-03', 1],
    ]);
    const byModel = await app.request('GET', '/v1/usage?groupBy=model');
    expect(byModel.body.groups.map((g: { key: string }) => g.key)).toEqual([
      'openai-compatible/priced',
      'openai-compatible/free',
    ]);

    // The window is taken to whole hours: 09:45 counts from 09:00, so the run of 09:30 is in; 10:15 goes to 11:00.
    const window = await app.request('GET', '/v1/usage?from=2026-11-03T09:45:00Z&to=2026-11-03T10:15:00%2B00:00');
    expect(window.body).toMatchObject({
      from: '2026-11-03T09:00:00.000Z',
      to: '2026-11-03T11:00:00.000Z',
      groupBy: null,
      totals: { runs: 1, inputTokens: 2000 },
      groups: [],
    });
    const before = await app.request('GET', '/v1/usage?to=2026-11-02');
    expect(before.body.totals).toEqual({ runs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedRuns: 0 });
  });

  it('counts tokens and cost in /metrics by provider, model and agent', async () => {
    const text = await (await fetch(`${app.url}/metrics`)).text();
    const labels = `provider="openai-compatible",model="openai-compatible/priced",agent="${priced}"`;
    expect(text).toContain(`model_tokens_total{${labels},direction="input"} 2100`);
    expect(text).toContain(`model_tokens_total{${labels},direction="output"} 1050`);
    expect(text).toMatch(new RegExp(`model_cost_usd_total\\{${labels.replace(/[/.]/g, '\\$&')}\\} 0\\.0220`));
    expect(text).not.toContain(`model_cost_usd_total{provider="openai-compatible",model="openai-compatible/free"`);
  });

  it.each([
    ['groupBy=week', 'groupBy'],
    ['from=yesterday', 'from'],
    ['from=2026-02-30', 'from'],
    ['to=2026-11-01T10:00:00', 'to'],
    ['from=2026-11-03&to=2026-11-02', 'to'],
    ['from=2026-11-03T10:00:00Z&to=2026-11-03T10:00:00Z', 'to'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const refused = await app.request('GET', `/v1/usage?${query}`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
  });
});

describe('MODEL_PRICES_FILE', () => {
  it('stops the start on a bad entry, naming the variable and the entry', async () => {
    const { loadConfig } = await import('../../src/config/load-config');
    const file = join(temporaryDataDir(), 'prices.json');
    writeFileSync(file, JSON.stringify({ 'openai/gpt-4o': { input: -1, output: 2 } }));
    expect(() => loadConfig({ MODEL_PRICES_FILE: file })).toThrow(/MODEL_PRICES_FILE: "openai\/gpt-4o" needs "input"/);
    writeFileSync(file, JSON.stringify({ 'gpt-4o': { input: 1, output: 2 } }));
    expect(() => loadConfig({ MODEL_PRICES_FILE: file })).toThrow(/MODEL_PRICES_FILE: "gpt-4o" must be a model id/);
  });
});
