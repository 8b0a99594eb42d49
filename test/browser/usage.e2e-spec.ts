/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp, temporaryDataDir } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(30_000);

describeInBrowser('cost and usage in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    const prices = join(temporaryDataDir(), 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'openai-compatible/priced': { input: 3, output: 15 } }));
    ({ model, app, browser, page } = await startConsole(
      () => ({ kind: 'text', text: 'Done', usage: { inputTokens: 1000, outputTokens: 200 } }),
      undefined,
      { MODEL_PRICES_FILE: prices },
    ));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);
  const run = async (agentId: string) => {
    const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'go' }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('succeeded');
    return ran.body.id as string;
  };

  it("shows a run's cost, and totals by agent and by day on the usage page", async () => {
    const priced = await app.request('POST', '/v1/agents', { name: 'accountant', model: 'openai-compatible/priced' });
    const free = await app.request('POST', '/v1/agents', { name: 'volunteer', model: 'openai-compatible/free' });
    const runId = await run(priced.body.id);
    await run(priced.body.id);
    await run(free.body.id);

    // 1,000 × $3 + 200 × $15 per million tokens
    await open(`agents/${priced.body.id}/runs/${runId}`);
    await page.getByTestId('run-cost').getByText('$0.006').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await open('usage');
    await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
    // The scripted clock ran these in March 2026: all time shows them.
    await page.getByLabel('Window').selectOption({ label: 'All time' });
    const totals = page.getByTestId('usage-totals');
    await totals.getByText('$0.012', { exact: false }).waitFor();
    expect(await totals.textContent()).toContain('3000 in, 600 out');
    expect(await totals.textContent()).toContain(
      '$0.012 for the priced runs; unknown for 1 run of models without a price',
    );
    const byAgent = page.getByTestId('usage-by-agent');
    expect(await byAgent.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^accountant\s+2\s+2000\s+400\s+\$0\.012$/),
      expect.stringMatching(/^volunteer\s+1\s+1000\s+200\s+\$0$/),
    ]);
    expect(await page.getByTestId('usage-by-day').locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^2026-03-01\s+3\s+3000\s+600\s+\$0\.012$/),
    ]);
    await byAgent.getByRole('link', { name: 'accountant' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // Each agent as it is named now, from the usage answer: renamed, or archived (which agent lists leave out).
    await app.request('PATCH', `/v1/agents/${priced.body.id}`, { name: 'bookkeeper' });
    await app.request('DELETE', `/v1/agents/${free.body.id}`);
    await page.reload();
    await page.getByLabel('Window').selectOption({ label: 'All time' });
    await byAgent.getByRole('link', { name: 'bookkeeper' }).waitFor();
    expect(await byAgent.getByRole('link').allInnerTexts()).toEqual(['bookkeeper', 'volunteer']);
  });
});
