/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer, lastUserMessage } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { startConsole, stopConsole } from '../support/console-fixture';
import { TestApp } from '../support/test-app';

jest.setTimeout(30_000);

describeInBrowser('datasets in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => ({
      kind: 'text',
      text: `Answer to ${lastUserMessage(body).split('\n')[0]}`,
    })));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  const itemRows = () => page.getByTestId('dataset-items').locator('tbody tr');
  // The dataset and its items are fetched apart: the list may show a new version's items a moment after it.
  const rowsShown = (count: number) =>
    page.waitForFunction(
      (rows) => document.querySelectorAll('[data-testid="dataset-items"] tbody tr').length === rows,
      count,
    );

  it('creates a dataset, adds an item by hand and one from a run page, reads an earlier version, archives it', async () => {
    await page.goto(`${app.url}/#/datasets`);
    await page.getByRole('heading', { name: 'Datasets', exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    // A nameless dataset is refused beside its field, and nothing is created.
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.locator('#dataset-name-error').getByText('name must not be empty').waitFor();

    await page.getByLabel('Name').fill('support questions');
    await page.getByLabel('Description').fill('From the help desk');
    await page.getByLabel('Target').selectOption('agent');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('heading', { name: 'support questions' }).waitFor();
    await page.getByText('No items yet.').waitFor();

    // By hand: a task, its context, the answer expected and notes; bad JSON is caught before sending.
    await page.getByLabel('Task').fill('Reset my password');
    await page.getByLabel('Context (JSON)').fill('{"plan": ');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.locator('#item-context-error').getByText('is not valid JSON', { exact: false }).waitFor();
    await page.getByLabel('Context (JSON)').fill('{"plan": "pro"}');
    await page.getByLabel('Expected', { exact: true }).fill('Use the reset link');
    await page.getByLabel('Metadata (JSON)').fill('{"tag": "account"}');
    await page.getByRole('button', { name: 'Add item' }).click();
    await itemRows().first().getByText('Reset my password', { exact: false }).waitFor();
    await page.getByTestId('dataset-version').getByText('2').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const datasetHash = await page.evaluate(() => location.hash);

    // From a run's page.
    const agent = await app.request('POST', '/v1/agents', { name: 'helper', model: 'openai-compatible/m' });
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'What is cron?' },
      { prefer: 'wait=10' },
    );
    expect(run.body.status).toBe('succeeded');
    await page.goto(`${app.url}/#/agents/${agent.body.id}/runs/${run.body.id}`);
    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'support questions' });
    await page.getByRole('button', { name: 'Add to dataset' }).click();
    await page.getByRole('status').getByText('Added to').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${app.url}/${datasetHash}`);
    await page.getByTestId('dataset-version').getByText('3').waitFor();
    await rowsShown(2);
    expect(await itemRows().count()).toBe(2);
    await itemRows().nth(1).getByRole('link', { name: run.body.id }).waitFor();
    await itemRows().nth(1).getByText('Answer to What is cron?', { exact: false }).waitFor();

    // Version 2 held the first item alone; removing it now leaves the run's item, and version 2 keeps both views.
    await page.getByLabel('Version').selectOption('2');
    await rowsShown(1);
    await page.getByLabel('Version').selectOption('');
    await page
      .getByRole('button', { name: /^Remove item dsitem_/ })
      .first()
      .click();
    await page.getByTestId('dataset-version').getByText('4').waitFor();
    await rowsShown(1);
    expect(await itemRows().count()).toBe(1);

    await page.getByRole('button', { name: 'Archive dataset' }).click();
    await page.getByText('archived', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Add item' }).count()).toBe(0);
    const dataset = (await app.request('GET', '/v1/datasets')).body.datasets[0];
    expect(dataset).toMatchObject({ name: 'support questions', status: 'archived', version: 4, itemCount: 1 });
  });
});
