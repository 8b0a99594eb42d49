/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { startConsole, stopConsole } from '../support/console-fixture';
import { TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(30_000);

describeInBrowser('webhooks in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    ({ model, app, browser, page } = await startConsole(
      () => ({ kind: 'text', text: 'ok' }),
      { width: 1200, height: 900 },
      { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    ));
  });
  afterAll(async () => {
    await stopConsole({ browser, app, model });
    await receiver.close();
  });

  it('creates a webhook and shows its secret once; lists its deliveries; redelivers one', async () => {
    await page.goto(`${app.url}/#/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A refused URL: the field says why, and nothing is created.
    await page.getByLabel('URL').fill('http://example.com/hook');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.locator('#webhook-url-error').getByText('must be https', { exact: false }).waitFor();

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Events').fill('AgentCreated');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').locator('pre').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('link', { name: receiver.url }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await app.request('POST', '/v1/agents', { name: 'announced', model: 'openai-compatible/m' });
    await expect(waitFor(() => receiver.received.length === 1)).resolves.toBe(true);

    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Webhook', exact: true }).waitFor();
    // The secret is never shown again.
    expect(await page.content()).not.toContain(secret);
    const deliveries = page.getByTestId('deliveries');
    await deliveries.getByText('AgentCreated').waitFor();
    expect(await deliveries.locator('tbody tr').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await deliveries.getByRole('button', { name: /Redeliver AgentCreated/ }).click();
    await page.getByTestId('redeliver-notice').getByText('Sent again: succeeded (200)').waitFor();
    await deliveries.getByText('2 (sent again)').waitFor();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByTestId('webhook-enabled').getByText('no').waitFor();
    await page.getByText('Events written while it is disabled are not sent').waitFor();
    const id = (await page.evaluate(() => location.hash)).split('/').pop()!;
    expect((await app.request('GET', `/v1/webhooks/${id}`)).body.enabled).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByTestId('webhook-enabled').getByText('yes').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    expect((await app.request('GET', `/v1/webhooks/${id}`)).status).toBe(404);
  });
});

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
