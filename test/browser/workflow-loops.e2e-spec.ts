/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/**
 * Map and repeating steps in the console: a step made in the editor to run once per item of a list (its list,
 * items at once and what a failed item does), shown on the workflow's page, and a run's items with their progress
 * and answers; a step that repeats until its rule holds, and its iterations; a step that runs another workflow,
 * linked to its child run, which links back.
 */
describeInBrowser('workflow map, repeating and workflow steps in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => {
      const task = lastUserMessage(body);
      return task.includes('broken')
        ? { kind: 'error', status: 400, message: 'The model cannot read this' }
        : { kind: 'text', text: `Hello to ${task}` };
    }));
    await app.request('POST', '/v1/agents', { name: 'greeter', model: 'openai-compatible/scripted' });
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it('makes a map step in the editor and shows a run of it item by item', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('greet each');
    await page.getByRole('radio', { name: "An agent's task per item of a list" }).check();
    await page.getByLabel('Step 0 agent').fill('greeter');
    await page.getByLabel('Step 0 action').fill('{{item}} (#{{index}})');
    await page.getByLabel('Step 0 id').fill('each');
    // A list that is not a path is refused beside its field before anything is sent.
    await page.getByLabel('Step 0 list').fill('names');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#step-0-mapOver-error').getByText('map.over must be a path', { exact: false }).waitFor();
    await page.getByLabel('Step 0 list').fill('input.names');
    await page.getByLabel('Step 0 items at once').fill('2');
    await page.getByLabel('Step 0 when an item fails').selectOption('skip');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'greet each' }).waitFor();
    const step = page.getByTestId('workflow-step').first();
    await step.getByText('per item of: input.names').waitFor();
    await step.getByText('items at once: 2').waitFor();
    await step.getByText('a failed item: is skipped', { exact: false }).waitFor();
    const graph = page.locator('[data-testid="workflow-graph"]').first();
    expect(await graph.locator('[data-node-id="each"] text').nth(1).textContent()).toBe('greeter per item');

    await page.getByLabel('Input (JSON object)').fill('{"names": ["Ada", "broken", "Cy"]}');
    await page.getByRole('button', { name: 'Trigger' }).click();
    await page.getByRole('heading', { name: 'Workflow run' }).waitFor();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByTestId('map-progress').getByText('3 of 3 items ended · 1 failed').waitFor();
    await page.getByTestId('map-progress').click();
    const items = page.getByTestId('map-item');
    expect(await items.count()).toBe(3);
    await items.nth(0).getByText('Hello to Ada (#0)').waitFor();
    await items.nth(1).getByText('failed', { exact: true }).waitFor();
    await items.nth(2).getByText('Hello to Cy (#2)').waitFor();
    await page.getByText('["Hello to Ada (#0)",null,"Hello to Cy (#2)"]', { exact: false }).first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(model.requests).toHaveLength(3);

    // The editor shows the map step as it was saved.
    await page.goto(`${app.url}/#/workflows`);
    await page.getByRole('link', { name: 'greet each' }).click();
    await page.getByText('Edit workflow').click();
    const form = page.getByRole('form', { name: 'Edit workflow' });
    expect(await form.getByLabel('Step 0 list').inputValue()).toBe('input.names');
    expect(await form.getByLabel('Step 0 items at once').inputValue()).toBe('2');
    expect(await form.getByLabel('Step 0 when an item fails').inputValue()).toBe('skip');
  });

  it('makes a repeating step in the editor and shows each iteration of a run', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('draft again');
    await page.getByLabel('Step 0 agent').fill('greeter');
    await page.getByLabel('Step 0 action').fill('draft {{iteration}} after [{{previous.output}}]');
    await page.getByLabel('Step 0 repeat until (JSON Logic)').fill('{"==": [{"var": "iteration"}, 2]');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#step-0-repeatUntil-error').waitFor();
    await page.getByLabel('Step 0 repeat until (JSON Logic)').fill('{"==": [{"var": "iteration"}, 2]}');
    await page.getByLabel('Step 0 at most (iterations)').fill('4');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'draft again' }).waitFor();
    await page.getByTestId('workflow-step').first().getByText('at most 4 times', { exact: false }).waitFor();
    const workflowPage = page.url();

    await page.getByRole('button', { name: 'Trigger' }).click();
    await page.getByRole('heading', { name: 'Workflow run' }).waitFor();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByTestId('iterations').getByText('2 iterations').click();
    const iterations = page.getByTestId('iteration');
    expect(await iterations.count()).toBe(2);
    await iterations.nth(0).getByText('Hello to draft 1 after []').waitFor();
    await iterations.nth(1).getByText('Hello to draft 2 after [Hello to draft 1 after []]').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(workflowPage);
    await page.getByText('Edit workflow').click();
    const form = page.getByRole('form', { name: 'Edit workflow' });
    expect(await form.getByLabel('Step 0 repeat until (JSON Logic)').inputValue()).toBe(
      '{"==":[{"var":"iteration"},2]}',
    );
    expect(await form.getByLabel('Step 0 at most (iterations)').inputValue()).toBe('4');
  });

  it('makes a step that runs another workflow, and links the run and its child both ways', async () => {
    const child = await app.request('POST', '/v1/workflows', {
      name: 'shout',
      steps: [{ agent: 'greeter', action: 'shout {{input.who}}' }],
    });
    expect(child.status).toBe(201);
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('call shout');
    await page.getByRole('radio', { name: 'Another workflow' }).check();
    await page.getByLabel('Step 0 workflow', { exact: true }).fill('shout');
    await page.getByLabel('Step 0 child input (JSON)').fill('{"who": "{{input.name}}"');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#step-0-childInput-error').getByText('JSON', { exact: false }).waitFor();
    await page.getByLabel('Step 0 child input (JSON)').fill('{"who": "{{input.name}}"}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'call shout' }).waitFor();
    await page.getByTestId('workflow-step').first().getByText('runs the workflow shout', { exact: false }).waitFor();
    const graph = page.locator('[data-testid="workflow-graph"]').first();
    expect(await graph.locator('[data-node-id="0"] text').nth(1).textContent()).toBe('workflow shout');

    await page.getByLabel('Input (JSON object)').fill('{"name": "Ada"}');
    await page.getByRole('button', { name: 'Trigger' }).click();
    await page.getByRole('heading', { name: 'Workflow run' }).waitFor();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    const parentUrl = page.url();
    await page.getByTestId('child-run').getByText('with the input', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('child-run').getByRole('link').click();
    await page.getByTestId('parent-run').getByText('step 0 of', { exact: false }).waitFor();
    await page.getByText('Hello to shout Ada', { exact: false }).first().waitFor();
    await page.getByTestId('parent-run').getByRole('link').click();
    await page.waitForURL((url) => url.hash.startsWith('#/workflow-runs/'));
    await page.getByTestId('child-run').waitFor();
    expect(parentUrl).toContain('/runs/');
  });
});
