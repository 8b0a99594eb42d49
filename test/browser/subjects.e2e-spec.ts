/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/**
 * Subjects in the console: a thread started about a person from the agent's page, the person looked up, a memory
 * namespace bound to them, and forgetting them after a confirmation that names what goes.
 */
describeInBrowser('subjects in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  const env = { DATA_KEY_SECRET: 'a-data-key-secret-of-more-than-32-characters' };
  beforeAll(
    async () =>
      ({ model, app, browser, page } = await startConsole(() => ({ kind: 'text', text: 'x' }), undefined, env)),
  );
  afterAll(() => stopConsole({ browser, app, model }));

  it('starts a thread about a person, binds a namespace to them, and forgets them', async () => {
    const agent = (await app.request('POST', '/v1/agents', { name: 'helper', model: 'openai-compatible/m' })).body;
    await page.goto(`${app.url}/#/agents/${agent.id}`);
    const newThread = page.getByRole('form', { name: 'New thread' });
    await newThread.getByLabel('About a person (subject id, optional)').fill('ada');
    await newThread.getByRole('button', { name: 'New thread' }).click();
    await page.waitForURL(/#\/threads\/thread_/);
    const threadId = page.url().split('/').pop()!;
    expect((await app.request('GET', `/v1/threads/${threadId}`)).body.subjectId).toBe('ada');

    await page.getByRole('link', { name: 'Subjects' }).click();
    await page.getByLabel('Subject id').fill('ada');
    await page.getByRole('button', { name: 'Look up' }).click();
    const subject = page.getByTestId('subject');
    await subject.getByRole('link', { name: threadId }).waitFor();
    const bind = page.getByRole('form', { name: 'Bind namespaces' });
    await bind.getByLabel('Memory namespaces about it (one per line)').fill('users/ada');
    await bind.getByRole('button', { name: 'Bind' }).click();
    await eventually(async () =>
      expect((await app.request('GET', '/v1/subjects/ada')).body.namespaces).toEqual(['users/ada']),
    );
    await app.request('PUT', '/v1/memory/users%2Fada/diet', { value: 'no meat' });
    expect(await accessibilityViolations(page)).toEqual([]);

    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    // Looked up again, the item put since counts in what goes.
    await page.reload();
    await subject.getByRole('link', { name: threadId }).waitFor();
    await page.getByRole('button', { name: 'Forget ada' }).click();
    await page.getByTestId('subject-forgotten').getByText('never').waitFor({ state: 'detached' });
    expect(question).toContain('1 thread(s), the content of 0 run(s), 1 memory item(s), everything in users/ada');
    expect((await app.request('GET', `/v1/threads/${threadId}`)).status).toBe(404);
    expect((await app.request('GET', '/v1/memory/users%2Fada/diet')).status).toBe(404);
  });
});
