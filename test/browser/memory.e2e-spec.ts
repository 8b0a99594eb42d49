/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/**
 * The Memory page: a namespace opened by name, an item put from the form (a value that is not JSON refused beside
 * its field first), the list, a search with a filter and one by meaning, the item's page with its versions and the item as it was,
 * and a delete after a confirmation.
 */
describeInBrowser('memory in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  // Items are embedded by the scripted server's embeddings endpoint (a test double), so search by meaning is on.
  const env = { EMBEDDING_MODEL: 'openai-compatible/embed' };
  beforeAll(
    async () =>
      ({ model, app, browser, page } = await startConsole(() => ({ kind: 'text', text: 'x' }), undefined, env)),
  );
  afterAll(() => stopConsole({ browser, app, model }));

  it('puts, lists, searches, shows the versions of and deletes an item', async () => {
    await app.request('PUT', '/v1/memory/teams%2Fops/runbook', { value: 'restart the queue' });
    await page.goto(`${app.url}/#/memory`);
    await page.getByTestId('memory-namespaces').getByRole('link', { name: 'teams/ops' }).waitFor();
    await page.getByLabel('Namespace').fill('users/ada');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'users/ada' }).waitFor();
    const put = page.getByRole('form', { name: 'Put an item' });
    await put.getByLabel('Key').fill('diet');
    await put.getByLabel('Value (JSON)').fill('vegetarian');
    await put.getByRole('button', { name: 'Put' }).click();
    await page.locator('#memory-value-error').getByText('value must be JSON', { exact: false }).waitFor();
    await put.getByLabel('Value (JSON)').fill('{"text": "Ada eats no meat and drinks green tea", "kind": "taste"}');
    await put.getByLabel('Time to live (seconds)').fill('0');
    await put.getByRole('button', { name: 'Put' }).click();
    await page.locator('#memory-ttl-error').waitFor();
    await put.getByLabel('Time to live (seconds)').fill('');
    await put.getByRole('button', { name: 'Put' }).click();
    await page.getByTestId('memory-items').getByRole('link', { name: 'diet' }).waitFor();
    expect((await app.request('GET', '/v1/memory/users%2Fada/diet')).body).toMatchObject({ version: 1 });

    const search = page.getByRole('form', { name: 'Search memory' });
    await search.getByLabel('Words').fill('tea');
    await search.getByLabel('Filter (JSON object, optional)').fill('{"kind": "taste"}');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('memory-hits').getByRole('link', { name: 'users/ada / diet' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    // By meaning alone: the query was embedded, and the hit's score is a cosine similarity.
    await search.getByLabel('Filter (JSON object, optional)').fill('');
    await search.getByLabel('Search by').selectOption('semantic');
    await search.getByRole('button', { name: 'Search' }).click();
    await page
      .getByTestId('memory-hits')
      .getByText(/score 0\.\d\d$/)
      .first()
      .waitFor();
    expect(model.embeddingRequests.flat()).toContain('tea');

    await page.getByTestId('memory-items').getByRole('link', { name: 'diet' }).click();
    await page.getByRole('heading', { name: 'diet' }).waitFor();
    const again = page.getByRole('form', { name: 'Put an item' });
    await again.getByLabel('Value (JSON)').fill('"vegan"');
    await again.getByRole('button', { name: 'Put' }).click();
    await page.getByTestId('memory-versions').locator('li').nth(1).waitFor();
    expect(await page.getByTestId('memory-item').textContent()).toContain('"vegan"');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('memory-gone').waitFor();
    expect(await page.getByTestId('memory-versions').locator('li').allTextContents()).toEqual([
      expect.stringContaining('Ada eats no meat'),
      expect.stringContaining('"vegan"'),
      expect.stringContaining('deleted'),
    ]);
    // As it was an hour before the first put (the service's test clock is at 12:00 UTC): not there.
    const before = await page.evaluate(() => {
      const at = new Date('2026-03-01T11:00:00Z');
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:00`;
    });
    await page.getByLabel('As it was at').fill(before);
    await page.getByRole('button', { name: 'Read' }).click();
    await page.getByTestId('memory-then').getByText('It was not in memory then.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it("shows a thread's working memory on its page, linked to its versions", async () => {
    const agent = await app.request('POST', '/v1/agents', {
      name: 'keeper',
      model: 'openai-compatible/m',
      memory: { maxMessages: 10, working: {} },
    });
    const thread = (await app.request('POST', '/v1/threads', { agentId: agent.body.id })).body.id;
    await app.request('PUT', `/v1/memory/threads%2F${thread}/working-memory`, { value: { name: 'Ada' } });
    await page.goto(`${app.url}/#/threads/${thread}`);
    await page.getByTestId('working-memory').getByText('"name": "Ada"').waitFor();
    await page.getByTestId('working-memory').getByRole('link', { name: 'Its versions' }).click();
    await page.getByTestId('memory-versions').locator('li').first().waitFor();
  });

  it("shows a thread's running summary on its page", async () => {
    const memory = { maxMessages: 2, summarize: true };
    const agent = await app.request('POST', '/v1/agents', { name: 'brief', model: 'openai-compatible/m', memory });
    const thread = (await app.request('POST', '/v1/threads', { agentId: agent.body.id })).body.id;
    for (const task of ['first', 'second', 'third']) {
      await app.request('POST', `/v1/threads/${thread}/runs`, { task }, { prefer: 'wait=10' });
    }
    // The scripted model answers "x" to everything, the summarizer too.
    await page.goto(`${app.url}/#/threads/${thread}`);
    await page.getByTestId('thread-summary').getByText('x', { exact: true }).waitFor();
  });

  it("lists on a run's page the memory items it was given and those it wrote, linked to them", async () => {
    await app.request('PUT', '/v1/memory/users%2Fbob/drink', { value: 'Bob drinks black coffee' });
    const memory = { maxMessages: 10, namespace: 'users/{{context.user}}', recall: { limit: 3 }, tools: true };
    const order = { key: 'last-order', value: 'a black coffee' };
    model.enqueue({ kind: 'toolCalls', calls: [{ name: 'remember', arguments: order }] }, { kind: 'text', text: 'ok' });
    const agent = await app.request('POST', '/v1/agents', { name: 'barista', model: 'openai-compatible/m', memory });
    await page.goto(`${app.url}/#/agents/${agent.body.id}`);
    await page
      .getByTestId('agent-memory')
      .getByText('namespace users/{{context.user}}, recalls up to 3 items', { exact: false })
      .waitFor();
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'A coffee for Bob', context: { user: 'bob' } },
      { prefer: 'wait=10' },
    );
    expect(run.body.recalled).toHaveLength(1);
    await page.goto(`${app.url}/#/agents/${agent.body.id}/runs/${run.body.id}`);
    const remembered = page.getByTestId('run-remembered');
    await remembered.getByRole('link', { name: 'users/bob/last-order' }).waitFor();
    expect(await remembered.textContent()).toBe('users/bob/last-order (version 1)');
    await page.getByTestId('run-recalled').getByRole('link', { name: 'users/bob/drink' }).click();
    await page.getByRole('heading', { name: 'drink' }).waitFor();
    expect(await page.getByTestId('memory-item').textContent()).toContain('Bob drinks black coffee');
  });
});
