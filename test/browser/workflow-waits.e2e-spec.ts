/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/**
 * Waits and sleeps in the console: a wait step and a sleep step made in the workflow editor, drawn on the graph,
 * a waiting run that says what it waits for, and the signal sent from its page, after which the run goes on.
 */
describeInBrowser('workflow waits in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => ({
      kind: 'text',
      text: `Shipped: ${lastUserMessage(body)}`,
    })));
    await app.request('POST', '/v1/agents', { name: 'shipper', model: 'openai-compatible/scripted' });
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it('makes a wait step and a sleep step in the editor, and sends the signal a waiting run asks for', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('ship when paid');
    await page.getByRole('radio', { name: 'Wait for a signal' }).check();
    await page.getByLabel('Step 0 signal', { exact: true }).fill('order.paid');
    await page.getByLabel('Step 0 signal key').fill('{{input.orderId}}');
    await page.getByLabel('Step 0 id').fill('paid');
    await page.getByLabel('Step 0 time limit (ms)').fill('3600000');
    await page.getByLabel('Step 0 waits').fill('2');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('input[name="step-1-kind"]').nth(5).check();
    await page.getByLabel('Step 1 id').fill('nap');
    // A sleep with neither time is refused before sending, beside its field.
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByText('sleep takes either ms or until').first().waitFor();
    await page.getByLabel('Step 1 sleep for (ms)').fill('1');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 agent').fill('shipper');
    await page.getByLabel('Step 2 action').fill('Ship {{input.orderId}}, paid {{steps.paid.output}}');
    await page.getByLabel('Step 2 needs').fill('nap');
    await page.getByLabel('Step 1 needs').fill('paid');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'ship when paid' }).waitFor();
    await page
      .getByText('waits for the signal order.paid with the key {{input.orderId}}, up to 2 times', { exact: false })
      .waitFor();
    const saved = (await app.request('GET', '/v1/workflows?name=ship%20when%20paid')).body.workflows[0];
    const definition = (await app.request('GET', `/v1/workflows/${saved.id}`)).body;
    expect(definition.steps[0]).toMatchObject({ wait: { timeoutMs: 3_600_000 }, retry: { attempts: 2 } });
    await page.getByText('sleeps 1 ms', { exact: false }).waitFor();
    const graph = page.locator('[data-testid="workflow-graph"]').first();
    expect(await graph.locator('[data-node-id="paid"] text').nth(1).textContent()).toBe('signal order.paid');
    expect(await graph.locator('[data-node-id="nap"] text').nth(1).textContent()).toBe('sleep');

    await page.getByLabel('Input (JSON object)').fill('{"orderId": "o-9"}');
    await page.getByRole('button', { name: 'Trigger' }).click();
    await page.getByRole('heading', { name: 'Workflow run' }).waitFor();
    await page.getByTestId('waiting-for').getByText('Waits for the signal order.paid with the key o-9').waitFor();
    const form = page.getByTestId('send-signal');
    expect(await form.getByLabel('Signal').inputValue()).toBe('order.paid');
    expect(await form.getByLabel('Key').inputValue()).toBe('o-9');
    expect(await accessibilityViolations(page)).toEqual([]);
    await form.getByLabel("Data (optional JSON, the step's output)").fill('{"amount": 42');
    await form.getByRole('button', { name: 'Send signal' }).click();
    await page.locator('#signal-data-error').waitFor();
    await form.getByLabel("Data (optional JSON, the step's output)").fill('{"amount": 42}');
    await form.getByRole('button', { name: 'Send signal' }).click();
    await page.getByTestId('signal-reached').getByText('it reached 1 waiting run').waitFor();
    // Then it sleeps: the service's clock is the test's, moved on by hand.
    await page.getByText('Sleeps until', { exact: false }).waitFor();
    app.clock.advance(10);
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor({ timeout: 15_000 });
    await page.getByText('Ended by the signal signal_', { exact: false }).waitFor();
    await page.getByText('Shipped: Ship o-9, paid {"amount":42}', { exact: false }).first().waitFor();
    expect(model.requests).toHaveLength(1);
  });
});
