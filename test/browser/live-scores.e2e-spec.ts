/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { startConsole, stopConsole } from '../support/console-fixture';
import { TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

jest.setTimeout(30_000);

describeInBrowser('live scores in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole(() => ({ kind: 'text', text: 'Hello, friend.' })));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it("sets an agent's live scorers in the form, and shows its runs' scores and their daily means", async () => {
    await app.request('POST', '/v1/scorers', {
      name: 'friendly',
      type: 'rule',
      rule: { in: ['friend', { var: 'output' }] },
    });
    await page.goto(`${app.url}/#/agents/new`);
    await page.getByLabel('Name', { exact: true }).fill('greeter');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Model name').fill('m');
    const scorers = page.getByRole('group', { name: 'Live scorers' });
    await scorers.getByRole('checkbox', { name: 'friendly' }).check();
    // A share past 1 is named beside the scorer, and nothing is sent.
    await scorers.getByLabel('Share of runs friendly scores').fill('2');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await scorers.getByText('friendly: sampling must be a number from 0 to 1').waitFor();
    await scorers.getByLabel('Share of runs friendly scores').fill('1');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'greeter' }).waitFor();
    await page.getByTestId('agent-scorers').getByText('friendly (100% of runs)').waitFor();

    const listed = (await app.request('GET', '/v1/agents?name=greeter')).body.agents[0];
    const agent = (await app.request('GET', `/v1/agents/${listed.id}`)).body;
    expect(agent.scorers).toEqual([{ scorer: 'friendly', sampling: 1 }]);
    let runId = '';
    for (const task of ['Greet me', 'Greet us', 'Greet them']) {
      runId = (await app.request('POST', `/v1/agents/${agent.id}/run`, { task }, { prefer: 'wait=10' })).body.id;
    }
    await eventually(async () => {
      const scores = (await app.request('GET', `/v1/scores?agent=${agent.id}`)).body.scores;
      expect(scores[0]?.count).toBe(3);
    });

    // The page was open since the agent was made: opened again, it reads the scores given since.
    await page.goto(`${app.url}/#/agents/${agent.id}`);
    await page.reload();
    await page.getByRole('heading', { name: 'Live scores' }).waitFor();
    const row = page.getByTestId('agent-scores').locator('tbody tr').first();
    expect((await row.locator('td').allTextContents()).slice(1)).toEqual(['friendly', '1', '3']);
    expect(await page.locator('svg.scores-chart [data-scorer="friendly"] circle').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${app.url}/#/agents/${agent.id}/runs/${runId}`);
    await page.getByTestId('run-scores').getByText('friendly').waitFor();
    expect(await page.getByTestId('run-scores').textContent()).toContain('friendly: 1');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
