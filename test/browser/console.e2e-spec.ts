/// <reference lib="dom" />
// Callbacks passed to page.evaluate run in the browser.
import type { Page } from 'playwright-core';
import {
  ChatCompletionsBody,
  hasToolResult,
  lastUserMessage,
  ScriptedReply,
  ScriptedServer,
} from '../support/scripted-model-server';
import {
  accessibilityViolations,
  describeInBrowser,
  elementsWiderThanViewport,
  launchBrowser,
  screenshot,
  TestBrowser,
} from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

/** The model's script: a tool call then streamed text, a slow answer to cancel, or a short answer. */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  const task = lastUserMessage(body);
  if (task.includes('slowly')) return { kind: 'text', text: Array(60).fill('tick '), chunkDelayMs: 500 };
  if (task.includes('Tokyo') && !hasToolResult(body)) {
    return { kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } }] };
  }
  if (task.includes('Tokyo')) return { kind: 'text', text: ['It is ', 'evening ', 'in Tokyo.'], chunkDelayMs: 250 };
  return { kind: 'text', text: 'Done.' };
}

jest.setTimeout(30_000);

describeInBrowser('the web console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => ({ model, app, browser, page } = await startConsole(scriptedModel)));
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);

  it('creates an agent from the form and watches a live run: tool call, text, usage, duration, status', async () => {
    await open('agents/new');
    await page.getByLabel('Name', { exact: true }).fill('researcher');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Model name').fill('scripted');
    await page.getByLabel('Instructions').fill('Answer briefly.');
    await page.getByRole('checkbox', { name: /current_time/ }).check();
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'researcher' }).waitFor();

    await page.getByLabel('Task').fill('What time is it in Tokyo?');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('current_time').first().waitFor();
    // The text arrives in pieces from the run's stream before the run has ended.
    await page.getByTestId('run-output').getByText('It is', { exact: false }).waitFor();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await expectText(page.getByTestId('run-output'), 'It is evening in Tokyo.');
    await expectText(page.getByTestId('run-usage'), /tokens in/);
    await expectText(page.getByTestId('run-duration'), /\d/);
    await expectText(page.locator('.tool-calls'), 'Asia/Tokyo');
    const call = page.locator('.tool-calls > li').first();
    expect(await call.getByRole('heading').allTextContents()).toEqual(['Arguments', 'Result']);
    await screenshot(page, 'agent-run');

    await open('agents');
    await page.getByLabel('Filter by name').fill('res');
    await page.getByRole('link', { name: 'researcher' }).waitFor();
    // The last run's time shows in the list (the test clock's year), where an agent never run shows "—".
    await page
      .getByRole('row', { name: /researcher/ })
      .getByText(/2026/)
      .waitFor();
    await screenshot(page, 'agents');
  });

  it('shows a problem next to the field it names', async () => {
    await open('agents/new');
    await page.getByLabel('Model name').fill('m');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const nameError = page.locator('#agent-name-error');
    await nameError.waitFor();
    // In the problem's own words, without the HTTP status's name.
    expect(await nameError.textContent()).toBe('name must not be empty');
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectText(page.getByRole('alert'), /Not sent: one field needs a change, marked beside each/);
  });

  it('cancels a running run', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'ticker', model: 'openai-compatible/scripted' });
    await open(`agents/${agent.body.id}`);
    await page.getByLabel('Task').fill('Count slowly');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-output').getByText('tick', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByTestId('run-status').getByText('cancelled').waitFor();
  });

  it('builds a scheduled workflow (cron checked as you type), triggers it with JSON input and follows the run', async () => {
    await open('workflows/new');
    await page.getByLabel('Name', { exact: true }).fill('daily digest');
    await page.getByLabel('On a schedule').check();
    const cron = page.getByLabel(/^Cron/);
    await cron.fill('0 9 * *');
    await expectText(page.getByTestId('cron-preview'), /Not valid: must have exactly five fields/);
    await cron.fill('0 9 * * 99');
    await expectText(page.getByTestId('cron-preview'), /Not valid/);
    expect(await cron.getAttribute('aria-invalid')).toBe('true');
    await cron.fill('30 9 * * 1-5');
    await page.getByLabel('Time zone').fill('Asia/Tokyo');
    await expectText(page.getByTestId('cron-preview'), /Valid\. Next five runs \(Asia\/Tokyo\)/);
    expect(await page.getByTestId('cron-preview').locator('li').count()).toBe(5);
    expect(await page.getByTestId('cron-preview').locator('li').first().textContent()).toMatch(/09:30/);
    await page.getByLabel('Step 0 agent').fill('researcher');
    await page.getByLabel('Step 0 action').fill('Facts about {{input.topic}}');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 1 agent').fill('ticker');
    await page.getByLabel('Step 1 action').fill('Shorten {{steps.0.output}}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'daily digest' }).waitFor();

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('workflow-status').getByText('paused').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('workflow-status').getByText('active').waitFor();

    await page.getByLabel('Input (JSON object)').fill('{"topic": ');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.locator('#trigger-input-error').getByText('Not valid JSON', { exact: false }).waitFor();
    await page.getByLabel('Input (JSON object)').fill('{"topic": "cron"}');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    expect(await page.getByTestId('timeline').locator('li').count()).toBe(2);
    await expectText(page.getByTestId('timeline'), /researcher[\s\S]*succeeded[\s\S]*ticker[\s\S]*succeeded/);
    // Each step's output under a heading of its own, apart from the task it was sent.
    const outputs = page.getByTestId('timeline').getByRole('heading', { name: /^Output of step / });
    expect(await outputs.allTextContents()).toEqual(['Output of step 0', 'Output of step 1']);

    await page.getByRole('link', { name: 'agent run' }).first().click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await expectText(page.getByTestId('run-output'), 'Done.');

    await open('workflows');
    await page
      .getByRole('row', { name: /daily digest/ })
      .getByText('30 9 * * 1-5 (Asia/Tokyo)')
      .waitFor();
    await screenshot(page, 'workflows');
  });

  it('opens the event log on the newest events, goes live, pages back with "Load older", opens envelopes and histories', async () => {
    const bulk: string[] = [];
    for (let i = 0; i < 110; i += 10) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          app.request('POST', '/v1/agents', { name: `bulk-${i + k}`, model: 'openai-compatible/m' }),
        ),
      );
      bulk.push(...created.map((response) => `agent-${response.body.id}`));
    }
    await open('events');
    await page.getByLabel('Types (comma-separated)').fill('AgentCreated');
    // Once the filter applies (typing settles first), every row is an AgentCreated.
    await page.waitForFunction(() => {
      const types = Array.from(document.querySelectorAll('tbody tr td:nth-child(2)'), (cell) => cell.textContent);
      return types.length === 100 && types.every((type) => type === 'AgentCreated');
    });
    // The newest first: the last agent created heads the table.
    const newest = await app.request('GET', '/v1/events?types=AgentCreated&order=desc&limit=1');
    await expectText(page.locator('tbody tr').first(), newest.body.events[0].stream);
    await page.getByRole('button', { name: 'Load older' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(100);
    await page.getByRole('button', { name: 'Load older' }).click();
    await page.locator('tbody tr:nth-child(101)').waitFor();
    await page.getByRole('link', { name: bulk[0] }).waitFor();
    const created = await app.request('POST', '/v1/agents', { name: 'newcomer', model: 'openai-compatible/m' });
    const stream = `agent-${created.body.id}`;
    await page.getByRole('link', { name: stream }).waitFor();
    await expectText(page.locator('tbody tr').first(), stream);
    await page
      .getByRole('row', { name: new RegExp(stream) })
      .getByRole('button', { name: 'AgentCreated' })
      .click();
    await expectText(page.getByTestId('envelope'), '"name": "newcomer"');
    await screenshot(page, 'event-log');
    await page.getByRole('link', { name: stream }).click();
    await page.getByRole('heading', { name: `History of ${stream}` }).waitFor();
    await page.getByRole('button', { name: 'AgentCreated', exact: true }).waitFor();
  });

  it('passes axe-core on every page, in light and dark schemes and on a phone-sized screen', async () => {
    const agents = (await app.request('GET', '/v1/agents?name=researcher')).body.agents;
    const agentId = agents[0].id;
    const run = (await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs[0];
    const workflow = (await app.request('GET', '/v1/workflows')).body.workflows[0];
    const workflowRun = (await app.request('GET', `/v1/workflows/${workflow.id}/runs`)).body.runs[0];
    const thread = (await app.request('POST', '/v1/threads', { agentId })).body;
    const webhook = (
      await app.request('POST', '/v1/webhooks', { url: 'https://example.com/hook', events: ['AgentArchived'] })
    ).body;
    const pages: [string, string][] = [
      ['agents', 'Agents'],
      ['agents/new', 'New agent'],
      [`agents/${agentId}`, 'researcher'],
      [`agents/${agentId}/runs/${run.id}`, 'Run'],
      ['workflows', 'Workflows'],
      ['workflows/new', 'New workflow'],
      [`workflows/${workflow.id}`, workflow.name],
      [`workflows/${workflow.id}/runs/${workflowRun.id}`, 'Workflow run'],
      ['events', 'Event log'],
      [`history/agent-${agentId}`, `History of agent-${agentId}`],
      [`threads/${thread.id}`, 'Thread'],
      ['webhooks', 'Webhooks'],
      [`webhooks/${webhook.id}`, 'Webhook'],
      ['usage', 'Usage'],
    ];
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const phone = await browser.newPage({
        viewport: { width: 375, height: 740 },
        colorScheme: scheme,
        isMobile: true,
      });
      // Colours are what changes between the schemes: dark is checked on the pages with the most of them.
      for (const [hash, heading] of scheme === 'light' ? pages : pages.filter((_, i) => [0, 3, 7, 8].includes(i))) {
        await phone.goto(`${app.url}/#/${hash}`);
        await phone.getByRole('heading', { name: heading, exact: true }).waitFor();
        // Every list on the page has loaded (a form may load its pickers' lists beside the page's own).
        await phone.waitForFunction(
          () => !Array.from(document.querySelectorAll('p')).some((p) => p.textContent === 'Loading…'),
        );
        for (const violation of await accessibilityViolations(phone))
          failures.push(`${scheme} #/${hash}: ${violation}`);
        // Nothing is wider than the screen but code blocks and the workflow graph, which pan in their own box.
        for (const wide of await elementsWiderThanViewport(phone)) failures.push(`${scheme} #/${hash}: ${wide}`);
      }
      if (scheme === 'dark') {
        await phone.goto(`${app.url}/#/workflows/${workflow.id}/runs/${workflowRun.id}`);
        await phone.getByTestId('timeline').waitFor();
        await screenshot(phone, 'workflow-run-phone-dark');
      }
    }
    expect(failures).toEqual([]);
  }, 90_000);

  it("offers Pause only where a schedule runs, and names each page's event history plainly", async () => {
    const agent = (await app.request('GET', '/v1/agents?name=researcher')).body.agents[0];
    const steps = [{ agent: 'researcher', action: 'x' }];
    const manual = (await app.request('POST', '/v1/workflows', { name: 'by hand', steps })).body;
    await open(`workflows/${manual.id}`);
    await page.getByRole('heading', { name: 'by hand' }).waitFor();
    await page.getByRole('button', { name: 'Archive workflow' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Event history' }).click();
    await page.getByRole('heading', { name: `History of workflow-${manual.id}` }).waitFor();
    await open(`agents/${agent.id}`);
    await page.getByRole('link', { name: 'Event history' }).click();
    await page.getByRole('heading', { name: `History of agent-${agent.id}` }).waitFor();
  });

  it('folds the sections behind a menu button on a phone-sized screen, and opens them on a wide one', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    try {
      await phone.goto(`${app.url}/#/agents`);
      await phone.getByRole('heading', { name: 'Agents', exact: true }).waitFor();
      const menu = phone.getByRole('button', { name: 'Menu' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await phone.getByRole('link', { name: 'Workflows' }).isVisible()).toBe(false);
      // The header takes one line, not the quarter of the screen the stacked links did.
      expect((await phone.locator('header').boundingBox())!.height).toBeLessThan(80);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await phone.getByRole('link', { name: 'Workflows' }).click();
      await phone.getByRole('heading', { name: 'Workflows', exact: true }).waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await accessibilityViolations(phone)).toEqual([]);
    } finally {
      await phone.close();
    }
    await open('agents');
    await page.getByRole('link', { name: 'Workflows' }).waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
  });

  it('works by keyboard alone: tab to a link and follow it', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/#/agents`);
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('href'));
    for (let i = 0; i < 10 && (await focused()) !== '#/workflows'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('#/workflows');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
  });
});

describeInBrowser('the web console on a service with API keys', () => {
  const KEY = 'console-test-key-0123456789';
  let app: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    app = await startTestApp({ env: { API_KEYS: KEY } });
    await app.request('POST', '/v1/agents', { name: 'guarded', model: 'ollama/m' }, { authorization: `Bearer ${KEY}` });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('asks for a key, keeps it for the session, and says so when a key is refused', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { name: 'API key needed' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await expectNoText(page, /refused/);
    await page.getByLabel('API key').fill('not-the-right-key-000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'API key needed' }).waitFor();
    const input = page.getByLabel('API key');
    await expectText(page.locator('#api-key-error'), 'The service refused this key');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe('api-key-error');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'key-prompt');
    await input.fill(KEY);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('link', { name: 'guarded' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'guarded' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('workflows.apiKey')")).toBe(KEY);
  });
});

async function expectNoText(page: Page, text: RegExp): Promise<void> {
  expect(await page.locator('body').textContent()).not.toMatch(text);
}

async function expectText(locator: ReturnType<Page['locator']>, expected: string | RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  let text = '';
  while (Date.now() < deadline) {
    text = (await locator.textContent()) ?? '';
    if (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(text).toMatch(expected);
}
