/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { startConsole, stopConsole } from '../support/console-fixture';
import { TestApp } from '../support/test-app';

jest.setTimeout(30_000);

describeInBrowser('scorers in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    // A judge's model: every answer gets 0.75.
    ({ model, app, browser, page } = await startConsole(() => ({
      kind: 'text',
      text: JSON.stringify({ score: 0.75, reason: 'mostly right' }),
    })));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it('defines a rule scorer and tries it; a bad rule is refused beside its field', async () => {
    await page.goto(`${app.url}/#/scorers`);
    await page.getByRole('heading', { name: 'Scorers', exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Name').fill('fast enough');
    await page.getByLabel('Type').selectOption('rule');
    await page.getByLabel('Rule (JSON Logic)').fill('{"nope": [1]}');
    await page.getByRole('button', { name: 'Create scorer' }).click();
    await page.locator('#scorer-rule-error').getByText('is not a JSON Logic operation', { exact: false }).waitFor();
    await page.getByLabel('Rule (JSON Logic)').fill('{"<": [{"var": "run.durationMs"}, 2000]}');
    await page.getByRole('button', { name: 'Create scorer' }).click();
    await page.getByRole('heading', { name: 'fast enough' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Answer', { exact: true }).fill('Done');
    await page.getByLabel('Run (JSON)').fill('{"durationMs": 800}');
    await page.getByRole('button', { name: 'Score it' }).click();
    await page.getByTestId('score').getByText('1', { exact: true }).waitFor();
    await page.getByLabel('Run (JSON)').fill('{"durationMs": 2500}');
    await page.getByRole('button', { name: 'Score it' }).click();
    await page.getByTestId('score').getByText('the rule is false', { exact: false }).waitFor();
  });

  it('defines a judge with an agent and a rubric, tries it, and archives it', async () => {
    await app.request('POST', '/v1/agents', { name: 'fair judge', model: 'openai-compatible/judge' });
    await page.goto(`${app.url}/#/scorers`);
    await page.getByLabel('Name').fill('polite');
    await page.getByLabel('Type').selectOption('judge');
    await page.getByLabel('Judge agent').selectOption('fair judge');
    await page.getByLabel('Rubric').fill('Polite and on topic.');
    await page.getByRole('button', { name: 'Create scorer' }).click();
    await page.getByRole('heading', { name: 'polite' }).waitFor();
    await page.getByText('Polite and on topic.').waitFor();
    await page.getByLabel('Answer', { exact: true }).fill('Thank you for asking!');
    await page.getByRole('button', { name: 'Score it' }).click();
    await page.getByTestId('score').getByText('mostly right', { exact: false }).waitFor();
    expect(await page.getByTestId('score').locator('strong').textContent()).toBe('0.75');

    await page.getByRole('button', { name: 'Archive scorer' }).click();
    await page.getByText('archived', { exact: true }).first().waitFor();
    const listed = (await app.request('GET', '/v1/scorers?status=archived')).body.scorers;
    expect(listed.map((scorer: { name: string }) => scorer.name)).toEqual(['polite']);
  });
});
