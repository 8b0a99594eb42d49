/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer, lastUserMessage } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { startConsole, stopConsole } from '../support/console-fixture';
import { TestApp } from '../support/test-app';

jest.setTimeout(30_000);

describeInBrowser('experiments in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => {
      const task = lastUserMessage(body);
      const knows = task.includes('France') && body.model !== 'forgetful';
      return { kind: 'text', text: knows ? 'Paris.' : 'No idea.', delayMs: 200 };
    }));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it('runs an experiment from the form, shows its progress, each mean against its threshold, and each result', async () => {
    await app.request('POST', '/v1/agents', { name: 'geographer', model: 'openai-compatible/m' });
    await app.request('POST', '/v1/scorers', { name: 'names Paris', type: 'contains' });
    const dataset = (await app.request('POST', '/v1/datasets', { name: 'capitals', target: 'agent' })).body;
    for (const task of ['Capital of France?', 'Capital of Peru?']) {
      await app.request('POST', `/v1/datasets/${dataset.id}/items`, { input: { task }, expected: 'Paris' });
    }

    await page.goto(`${app.url}/#/experiments`);
    await page.getByRole('heading', { name: 'Experiments', exact: true }).waitFor();
    await page.getByText('No experiments yet.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    // Without a scorer the form says so, and sends nothing.
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByText('choose at least one scorer').waitFor();

    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'capitals (agent, 2 items, version 3)' });
    await page.getByLabel('Agent', { exact: true }).selectOption('geographer');
    await page.getByRole('checkbox', { name: 'names Paris' }).check();
    await page.getByLabel('Threshold for names Paris').fill('0.4');
    await page.getByLabel('Items at once').fill('1');
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByRole('heading', { name: 'Experiment', exact: true }).waitFor();

    // It runs on the page: the progress grows, then the means and `passed`.
    await page.getByTestId('experiment-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByTestId('experiment-progress').getByText('2 of 2 scored', { exact: false }).waitFor();
    await page.getByTestId('experiment-passed').getByText('passed', { exact: true }).waitFor();
    const means = page.getByTestId('experiment-scores').locator('tbody tr');
    expect(await means.first().locator('td').allTextContents()).toEqual(['names Paris', '0.5', '0.4', 'yes']);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="experiment-results"] tbody tr').length === 2,
    );
    await page.getByTestId('experiment-results').getByText('No idea.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${app.url}/#/experiments`);
    await page.getByRole('cell', { name: 'passed', exact: true }).waitFor();
    expect(model.requests).toHaveLength(2);
  });

  it('compares the experiment after a change with the one before, side by side, worst items first', async () => {
    await app.request('POST', '/v1/agents', { name: 'forgetful', model: 'openai-compatible/forgetful' });
    const before = (await app.request('GET', '/v1/experiments')).body.experiments[0];
    const after = await app.request(
      'POST',
      '/v1/experiments',
      { dataset: before.dataset.id, target: { agent: 'forgetful' }, scorers: ['names Paris'] },
      { prefer: 'wait=20' },
    );
    expect(after.body.status).toBe('succeeded');
    await page.goto(`${app.url}/#/experiments/${after.body.id}`);
    await page.getByLabel('Compare with (before)').selectOption(before.id);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByRole('heading', { name: 'Comparison' }).waitFor();
    await page.getByTestId('compare-counts').getByText('2 compared: 1 worse, 0 better, 1 the same').waitFor();
    const scorer = page.getByTestId('compare-scorers').locator('tbody tr').first();
    expect(await scorer.locator('td').allTextContents()).toEqual(['names Paris', '0.5', '0', '-0.5']);
    await page.getByTestId('compare-items').getByText('Capital of France?', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('tries an earlier version of the agent with a change from the form, recorded, and shows what it tried', async () => {
    const agentId = (await app.request('GET', '/v1/agents?name=geographer')).body.agents[0].id;
    await app.request('PATCH', `/v1/agents/${agentId}`, { instructions: 'Be brief.' });
    model.requests.splice(0);
    await page.goto(`${app.url}/#/experiments`);
    await page.getByRole('heading', { name: 'New experiment' }).waitFor();
    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'capitals (agent, 2 items, version 3)' });
    await page.getByLabel('Agent', { exact: true }).selectOption('geographer');
    await page.getByRole('checkbox', { name: 'names Paris' }).check();
    await page.getByLabel('Agent version').fill('1');
    await page.getByLabel('Tools').selectOption('recorded');
    // A change the service refuses is named beside its field, and nothing runs.
    await page.getByLabel('Overrides').fill('{"tools": ["no_such_tool"]}');
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByText('"no_such_tool" is not a known tool', { exact: false }).waitFor();
    expect(model.requests).toHaveLength(0);

    await page.getByLabel('Overrides').fill('{"model": "openai-compatible/forgetful"}');
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByRole('heading', { name: 'Experiment', exact: true }).waitFor();
    await page.getByTestId('experiment-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByText('geographer (version 1)', { exact: false }).waitFor();
    await page.getByTestId('experiment-overrides').getByText('openai-compatible/forgetful', { exact: false }).waitFor();
    await page.getByTestId('experiment-mode').getByText('0 calls replayed, 0 ran', { exact: false }).waitFor();
    // Each item's run names its experiment and the change it tried.
    await page
      .getByTestId('experiment-results')
      .getByRole('link', { name: /^agentrun_/ })
      .first()
      .click();
    await page.getByTestId('run-experiment').waitFor();
    await page.getByText('"model": "openai-compatible/forgetful"', { exact: false }).waitFor();
    expect(model.requests.map((body) => body.model)).toEqual(['forgetful', 'forgetful']);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('runs a workflow dataset on a workflow from the form, and links each item to its workflow run', async () => {
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'capital-flow',
      steps: [{ id: 'ask', agent: 'geographer', action: 'Capital of {{input.country}}?' }],
    });
    const dataset = (await app.request('POST', '/v1/datasets', { name: 'flows', target: 'workflow' })).body;
    await app.request('POST', `/v1/datasets/${dataset.id}/items`, { input: { country: 'France' }, expected: 'Paris' });
    model.requests.splice(0);
    await page.goto(`${app.url}/#/experiments`);
    await page.getByRole('heading', { name: 'New experiment' }).waitFor();
    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'flows (workflow, 1 items, version 2)' });
    // A workflow dataset runs on a workflow: the form asks for one instead of an agent.
    await page.getByLabel('Workflow', { exact: true }).selectOption(workflow.body.id);
    expect(await page.getByLabel('Agent', { exact: true }).count()).toBe(0);
    await page.getByRole('checkbox', { name: 'names Paris' }).check();
    const step = { id: 'ask', agent: 'nobody', action: 'Capital of {{input.country}}?' };
    await page.getByLabel('Overrides').fill(JSON.stringify({ steps: [step] }));
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByText('no agent is named "nobody"', { exact: false }).waitFor();
    expect(model.requests).toHaveLength(0);

    await page.getByLabel('Overrides').fill('');
    await page.getByRole('button', { name: 'Run experiment' }).click();
    await page.getByRole('heading', { name: 'Experiment', exact: true }).waitFor();
    await page.getByTestId('experiment-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByText('capital-flow (version 1)', { exact: false }).waitFor();
    const experimentId = page.url().split('/').pop()!;
    await page.getByTestId('experiment-results').getByText('Paris.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page
      .getByTestId('experiment-results')
      .getByRole('link', { name: /^wfrun_/ })
      .click();
    await page.getByRole('heading', { name: 'Workflow run' }).waitFor();
    expect(page.url()).toContain(`#/workflows/${workflow.body.id}/runs/wfrun_`);
    await page.getByTestId('run-experiment').getByRole('link', { name: experimentId }).waitFor();
    expect(model.requests).toHaveLength(1);
  });
});
