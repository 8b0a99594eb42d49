/// <reference lib="dom" />
// Callbacks passed to page.evaluate run in the browser.
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedReply, ScriptedServer } from '../support/scripted-model-server';
import { describeInBrowser, TestBrowser } from '../support/browser';
import { eventually } from '../support/eventually';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'omega'];

/** Slow text for runs watched mid-way (6 s); a short answer otherwise. */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  if (lastUserMessage(body).includes('slowly')) {
    return { kind: 'text', text: [...WORDS.slice(0, -1).map((w) => `${w} `), WORDS.at(-1)!], chunkDelayMs: 600 };
  }
  return { kind: 'text', text: 'Done.' };
}

jest.setTimeout(40_000);

/** The console a new user meets in the first hour: providers, edits, run again, the event log, a stream mid-run. */
describeInBrowser('the console in the first hour, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(
    async () => ({ model, app, browser, page } = await startConsole(scriptedModel, { width: 1280, height: 900 })),
  );
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string, on: Page = page) => on.goto(`${app.url}/#/${hash}`);
  const createAgent = async (name: string) =>
    (await app.request('POST', '/v1/agents', { name, model: 'openai-compatible/scripted' })).body;

  it('starts a new agent on a configured provider, offers its models and marks the others not configured', async () => {
    await open('agents/new');
    const provider = page.getByLabel('Provider');
    await eventually(async () => expect(await provider.inputValue()).toBe('openai-compatible'));
    expect(await page.getByLabel('Model name').inputValue()).toBe('scripted');
    expect(
      await page.locator('#agent-models option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
    ).toEqual(['scripted']);
    const options = await provider.locator('option').allTextContents();
    expect(options).toEqual(
      expect.arrayContaining(['openai (not configured)', 'anthropic (not configured)', 'openai-compatible']),
    );
    await provider.selectOption('openai');
    await page.getByText('Not configured: set OPENAI_API_KEY and restart').waitFor();
    await provider.selectOption('openai-compatible');
    await page.getByLabel('Name', { exact: true }).fill('picked');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'picked' }).waitFor();
    expect((await app.request('GET', '/v1/agents?name=picked')).body.agents[0].model).toBe(
      'openai-compatible/scripted',
    );
  });

  it('edits an agent with If-Match, and says so when someone else changed it first', async () => {
    const agent = await createAgent('editable');
    await open(`agents/${agent.id}`);
    await page.getByText('Edit agent').click();
    await page.getByLabel('Instructions').fill('Answer in French.');
    // Meanwhile someone else changes it.
    const other = await app.request(
      'PATCH',
      `/v1/agents/${agent.id}`,
      { instructions: 'Answer in German.' },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(other.status).toBe(200);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Someone else changed this since you opened it', { exact: false }).waitFor();
    expect((await app.request('GET', `/v1/agents/${agent.id}`)).body.instructions).toBe('Answer in German.');

    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByTestId('agent-version').getByText('2').waitFor();
    await page.getByText('Edit agent').click();
    await page.getByLabel('Instructions').fill('Answer in French.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('agent-version').getByText('3').waitFor();
    expect((await app.request('GET', `/v1/agents/${agent.id}`)).body.instructions).toBe('Answer in French.');
  });

  it('runs an agent run and a workflow run again, and shows the task each step was sent, steps numbered from 0', async () => {
    const agent = await createAgent('again');
    const first = (await app.request('POST', `/v1/agents/${agent.id}/run`, { task: 'once more', context: { n: 1 } }))
      .body;
    await open(`agents/${agent.id}/runs/${first.id}`);
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((url) => url.hash.includes('/runs/') && !url.hash.endsWith(first.id));
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    const runs = (await app.request('GET', `/v1/agents/${agent.id}/runs?order=desc`)).body.runs;
    expect(runs.map((run: any) => [run.task, run.context])).toEqual([
      ['once more', { n: 1 }],
      ['once more', { n: 1 }],
    ]);

    const workflow = (
      await app.request('POST', '/v1/workflows', {
        name: 'twice',
        steps: [
          { agent: 'again', action: 'About {{input.topic}}' },
          { agent: 'again', action: 'Shorten {{steps.0.output}}' },
        ],
      })
    ).body;
    const run = (await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: { topic: 'cron' } })).body;
    await open(`workflows/${workflow.id}/runs/${run.id}`);
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    await page.getByTestId('timeline').getByText('Step 0: again').waitFor();
    await page.getByTestId('timeline').getByText('Step 1: again').waitFor();
    await page.getByText('Task sent').nth(1).click();
    await page.getByTestId('timeline').getByText('Shorten Done.').waitFor();
    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((url) => !url.hash.endsWith(run.id));
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    const listed = (await app.request('GET', `/v1/workflows/${workflow.id}/runs?order=desc`)).body.runs;
    expect(listed.map((r: any) => r.input)).toEqual([{ topic: 'cron' }, { topic: 'cron' }]);
  });

  it('edits a workflow, picking a step agent from the list, and archives it', async () => {
    await createAgent('lister');
    const workflow = (
      await app.request('POST', '/v1/workflows', { name: 'to edit', steps: [{ agent: 'again', action: 'x' }] })
    ).body;
    await open(`workflows/${workflow.id}`);
    await page.getByText('Edit workflow').click();
    const agentField = page.getByLabel('Step 0 agent');
    expect(await agentField.getAttribute('list')).toBe('agent-names');
    await eventually(async () =>
      expect(
        await page.locator('#agent-names option').evaluateAll((o) => o.map((x) => x.getAttribute('value'))),
      ).toContain('lister'),
    );
    await agentField.fill('lister');
    await page.getByLabel('Step 0 sends').selectOption('input');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-step').getByText('lister').waitFor();
    const saved = (await app.request('GET', `/v1/workflows/${workflow.id}`)).body;
    expect(saved.steps).toEqual([{ agent: 'lister', action: 'x', context: 'input' }]);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Archive workflow' }).click();
    await page.getByTestId('workflow-status').getByText('archived').waitFor();
  });

  it('names the workflows that use an agent before archiving it, and archives it only if asked to anyway', async () => {
    const agent = await createAgent('in-use');
    await app.request('POST', '/v1/workflows', { name: 'uses it', steps: [{ agent: 'in-use', action: 'x' }] });
    await open(`agents/${agent.id}`);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Archive agent' }).click();
    await page.getByRole('heading', { name: 'in-use' }).locator('xpath=..').getByText('archived').waitFor();
    page.removeAllListeners('dialog');
    expect(dialogs).toEqual([
      expect.stringMatching(/^Archive in-use\?/),
      expect.stringMatching(
        /^Agent "in-use" is used by workflows that are not archived: "uses it" \(wf_[^,]+, step 0\)[\s\S]*Archive it anyway\?$/,
      ),
    ]);
    expect((await app.request('GET', `/v1/agents/${agent.id}`)).body.status).toBe('archived');
  });

  it('fits the event log on a 1,280 px and a 375 px screen: one line per event on the wide one, every type whole, the envelope beside or below', async () => {
    for (let i = 0; i < 5; i++) await createAgent(`log-${i}-${'x'.repeat(30)}`);
    for (const [width, height] of [
      [1280, 800],
      [375, 740],
    ]) {
      const view = await browser.newPage({ viewport: { width, height }, isMobile: width < 500 });
      await open('events', view);
      const rows = view.getByTestId('event-log').locator('tbody tr');
      await eventually(async () => expect(await rows.count()).toBeGreaterThan(5));
      await rows.first().getByRole('button').click();
      await view.getByTestId('envelope').waitFor();
      const measured = await view.evaluate(() => {
        const rows = Array.from(document.querySelectorAll('[data-testid="event-log"] tbody tr'));
        const line = parseFloat(getComputedStyle(document.body).lineHeight) || 24;
        const table = document.querySelector('[data-testid="event-log"]')!.getBoundingClientRect();
        const envelope = document.querySelector('.envelope')!.getBoundingClientRect();
        return {
          tallest: Math.max(...rows.map((row) => row.getBoundingClientRect().height)),
          // A type is never cut short: its cell holds the whole word, wrapping where the screen is narrow.
          cutTypes: Array.from(document.querySelectorAll('[data-testid="event-log"] td.col-type'))
            .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
            .map((cell) => cell.textContent),
          line,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
          tableOverflow: Math.max(
            ...Array.from(document.querySelectorAll('.table-wrap')).map((wrap) => wrap.scrollWidth - wrap.clientWidth),
          ),
          beside: envelope.left >= table.right - 1,
          below: envelope.top >= table.bottom - 1,
        };
      });
      expect({ width, overflow: measured.overflow, tableOverflow: measured.tableOverflow }).toEqual({
        width,
        overflow: 0,
        tableOverflow: 0,
      });
      expect(measured.cutTypes).toEqual([]);
      // On a wide screen, one line of text and the cell's padding, not two.
      if (width > 1000) expect(measured.tallest).toBeLessThan(measured.line * 2);
      expect(width > 1000 ? measured.beside : measured.below).toBe(true);
      await view.close();
    }
  });

  it('starts a run page opened mid-run with the text so far, then goes on live', async () => {
    const agent = await createAgent('slow');
    const run = (await app.request('POST', `/v1/agents/${agent.id}/run`, { task: 'Count slowly' })).body;
    // Two pieces were written before the page opens.
    await eventually(async () => expect(model.openRequests()).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await open(`agents/${agent.id}/runs/${run.id}`);
    await page.getByTestId('run-output').getByText('alpha beta', { exact: false }).waitFor();
    expect((await app.request('GET', `/v1/agents/${agent.id}/runs/${run.id}`)).body.status).toBe('running');
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    expect(await page.getByTestId('run-output').textContent()).toBe(WORDS.join(' '));
  });
});
