/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/**
 * A backfill from the workflow's page: a window of the past typed in the browser's own time, the ticks listed with
 * what became of each (under `overlap: skip`, the ones after the first are skipped while it goes), each run linked
 * and marked as a backfill; a window that ends in the future is refused beside its field.
 */
describeInBrowser('a schedule backfilled from the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole(() => ({ kind: 'text', text: 'done' })));
    await app.request('POST', '/v1/agents', { name: 'reporter', model: 'openai-compatible/scripted' });
  });
  afterAll(() => stopConsole({ browser, app, model }));

  /** An instant as a `datetime-local` value in the browser's zone (the service's test clock is at 12:00 UTC). */
  const localTime = (iso: string) =>
    page.evaluate((instant) => {
      const at = new Date(instant);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
    }, iso);

  it('runs the ticks of a past window and lists what became of each', async () => {
    const created = await app.request('POST', '/v1/workflows', {
      name: 'hourly report',
      trigger: { type: 'schedule', cron: '0 * * * *', timezone: 'UTC' },
      overlap: 'skip',
      steps: [{ agent: 'reporter', action: 'report' }],
    });
    await page.goto(`${app.url}/#/workflows/${created.body.id}`);
    const form = page.getByRole('form', { name: 'Backfill' });
    await form.getByLabel('From').fill(await localTime('2026-03-01T09:00:00Z'));
    await form.getByLabel('To').fill(await localTime('2026-03-01T13:00:00Z'));
    await form.getByRole('button', { name: 'Backfill' }).click();
    await page.locator('#backfill-to-error').getByText('must not be after now', { exact: false }).waitFor();
    expect((await app.request('GET', `/v1/workflows/${created.body.id}/runs`)).body.runs).toEqual([]);

    await form.getByLabel('To').fill(await localTime('2026-03-01T11:00:00Z'));
    await form.getByRole('button', { name: 'Backfill' }).click();
    const ticks = page.getByTestId('backfill-ticks').locator('li');
    await ticks.first().waitFor();
    expect(await ticks.evaluateAll((items) => items.map((item) => item.getAttribute('data-outcome')))).toEqual([
      'triggered',
      'skipped',
      'skipped',
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await ticks.first().getByRole('link').click();
    await page.getByText('backfill, tick of', { exact: false }).waitFor();
  });
});
