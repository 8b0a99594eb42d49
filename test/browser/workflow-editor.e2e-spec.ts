/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedServer } from '../support/scripted-model-server';
import {
  accessibilityViolations,
  describeInBrowser,
  elementsWiderThanViewport,
  screenshot,
  TestBrowser,
} from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

/** The workflow form: every field, the graph previewed as steps are typed, and problems found before sending. */
describeInBrowser('the workflow editor, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => ({ kind: 'text', text: lastUserMessage(body) })));
    await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/scripted' });
  });
  afterAll(() => stopConsole({ browser, app, model }));

  const preview = () => page.locator('.steps-preview');
  const fillStep = async (i: number, id: string, needs: string) => {
    if (i > 0) await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel(`Step ${i} agent`).fill('worker');
    await page.getByLabel(`Step ${i} action`).fill(`do ${id}`);
    await page.getByLabel(`Step ${i} id`).fill(id);
    if (needs) await page.getByLabel(`Step ${i} needs`).fill(needs);
  };

  it('previews four steps with two branches and a join, refuses a cycle before sending, then saves', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('diamond');
    await fillStep(0, 'fetch', '');
    await fillStep(1, 'left', 'fetch');
    await fillStep(2, 'right', 'fetch');
    await fillStep(3, 'join', 'left, right');
    await preview().getByText('✓ The needs make a graph the service can run.').waitFor();
    expect(await preview().locator('[data-testid="workflow-graph"] [data-node-id]').count()).toBe(4);
    expect(await preview().locator('[data-testid="workflow-graph"] [data-edge]').count()).toBe(4);
    await screenshot(page, 'workflow-editor');

    // A cycle typed in a step's needs is said at once, and the form refuses to send it.
    await page.getByLabel('Step 0 needs').fill('join');
    await preview()
      .getByText(/would make a cycle: "fetch" → "join" → "left" → "fetch"|would make a cycle/)
      .first()
      .waitFor();
    const before = (await app.request('GET', '/v1/workflows')).body.workflows.length;
    const sent: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && sent.push(request.url()));
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#step-0-needs-error').getByText('would make a cycle', { exact: false }).waitFor();
    expect(await page.getByLabel('Step 0 needs').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
    expect((await app.request('GET', '/v1/workflows')).body.workflows.length).toBe(before);

    await page.getByLabel('Step 0 needs').fill('');
    await page.getByLabel('Step 3 time limit (ms)').fill('60000');
    await page.getByLabel('Output step').fill('join');
    await page.getByLabel('Max concurrent runs').fill('2');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'diamond' }).waitFor();
    const workflow = (await app.request('GET', '/v1/workflows?name=diamond')).body.workflows[0];
    const full = (await app.request('GET', `/v1/workflows/${workflow.id}`)).body;
    expect(full).toMatchObject({ outputStep: 'join', maxConcurrentRuns: 2, trigger: { type: 'manual' } });
    expect(full.steps.map((step: any) => [step.id, step.needs])).toEqual([
      ['fetch', undefined],
      ['left', ['fetch']],
      ['right', ['fetch']],
      ['join', ['left', 'right']],
    ]);
    expect(full.steps[3].timeoutMs).toBe(60000);

    // A run of it, drawn as the same graph, each node with its status.
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    expect(await page.locator('[data-testid="workflow-graph"] [data-status="succeeded"]').count()).toBe(4);
    await screenshot(page, 'workflow-run-graph');
  });

  it('edits every field of a workflow: trigger, steps (an approval step too), output step, run policy, concurrency key', async () => {
    const workflow = (await app.request('GET', '/v1/workflows?name=diamond')).body.workflows[0];
    await page.goto(`${app.url}/#/workflows/${workflow.id}`);
    await page.getByText('Edit workflow').click();
    const form = page.getByRole('form', { name: 'Edit workflow' });
    expect(await form.getByLabel('Step 3 id').inputValue()).toBe('join');
    expect(await form.getByLabel('Output step').inputValue()).toBe('join');
    await form.getByLabel('Name', { exact: true }).fill('diamond-2');
    await form.getByLabel('On a schedule').check();
    await form.getByLabel(/^Cron/).fill('15 6 * * *');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByRole('button', { name: 'Add step' }).click();
    await form.getByRole('radio', { name: "A person's approval" }).last().check();
    await form.getByLabel('Step 4 approval text').fill('Publish it?');
    await form.getByLabel('Step 4 id').fill('publish');
    await form.getByLabel('Step 4 needs').fill('join');
    await form.getByLabel('Step 1 runs when (JSON Logic)').fill('{"==": [1, 1]}');
    await form.getByLabel('Step 2 attempts').fill('3');
    await form.getByLabel('Step 2 wait before a retry (ms)').fill('500');
    await form.getByLabel('Step 2 sends').selectOption('input');
    await form.getByLabel('Output step').fill('publish');
    await form.getByLabel('Overlap').selectOption('skip');
    await form.getByLabel('Max concurrent runs').fill('');
    // A concurrency key cannot read steps, which have not run when a run is triggered: the form says so first.
    expect(await form.getByLabel('Runs at once per key').isDisabled()).toBe(true);
    await form.getByLabel('Concurrency key').fill('{{steps.fetch.output}}');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#wf-concurrency-key-error').getByText('cannot read', { exact: false }).waitFor();
    expect((await app.request('GET', `/v1/workflows/${workflow.id}`)).body.concurrency).toBeNull();
    await form.getByLabel('Concurrency key').fill('{{input.customerId}}');
    await form.getByLabel('Runs at once per key').fill('2');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'diamond-2' }).waitFor();
    expect(await page.getByTestId('workflow-concurrency').textContent()).toBe(
      'at most 2 at once per {{input.customerId}}',
    );
    const saved = (await app.request('GET', `/v1/workflows/${workflow.id}`)).body;
    expect(saved).toMatchObject({
      trigger: { type: 'schedule', cron: '15 6 * * *', timezone: 'Europe/Berlin' },
      outputStep: 'publish',
      overlap: 'skip',
      maxConcurrentRuns: null,
      concurrency: { key: '{{input.customerId}}', limit: 2 },
    });
    expect(saved.steps[1].when).toEqual({ '==': [1, 1] });
    expect(saved.steps[2]).toMatchObject({ retry: { attempts: 3, backoffMs: 500 }, context: 'input' });
    expect(saved.steps[4]).toEqual({ id: 'publish', needs: ['join'], approval: 'Publish it?' });

    // A run's nodes change as it goes, with no reload: the approval step waits, then succeeds once approved.
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    const graph = page.getByTestId('workflow-graph');
    await graph.locator('[data-node-id="publish"][data-status="waiting"]').waitFor();
    expect(await graph.locator('[data-node-id="join"]').getAttribute('data-status')).toBe('succeeded');
    // A click on a node opens its step: the card is focused, and its task shown.
    await graph.locator('[data-node-id="join"]').click();
    await page.locator('#step-join.selected:focus').waitFor();
    expect(await page.locator('#step-join details').getAttribute('open')).not.toBeNull();
    // The keyboard's way to the same place: the list under the graph.
    await page.getByRole('button', { name: 'Open step left' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#step-left.selected:focus').waitFor();
    await page
      .getByTestId('workflow-approval')
      .getByRole('button', { name: /Approve/ })
      .click();
    await graph.locator('[data-node-id="publish"][data-status="succeeded"]').waitFor();
  });

  it('shows three problems beside their fields after one submit: an unknown agent, a cron, a condition', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('broken');
    await page.getByLabel('On a schedule').check();
    await page.getByLabel(/^Cron/).fill('61 * * * *');
    await page.getByLabel('Step 0 agent').fill('nobody');
    await page.getByLabel('Step 0 action').fill('x');
    await page.getByLabel('Step 0 runs when (JSON Logic)').fill('{"==": ');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#step-0-agent-error').getByText('no active agent is named "nobody"').waitFor();
    await page.locator('#wf-cron-error').waitFor();
    await page.locator('#step-0-when-error').getByText('not valid JSON', { exact: false }).waitFor();
    await page.getByRole('alert').getByText('3 fields need a change', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('fits a phone: the editor and its graph preview pass axe-core, and only the graph pans sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    try {
      await phone.goto(`${app.url}/#/workflows/new`);
      await phone.getByLabel('Step 0 agent').fill('worker');
      await phone.getByRole('button', { name: 'Add step' }).click();
      await phone.getByRole('button', { name: 'Add step' }).click();
      await phone.locator('.steps-preview [data-testid="workflow-graph"]').waitFor();
      expect(await accessibilityViolations(phone)).toEqual([]);
      expect(await elementsWiderThanViewport(phone)).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
