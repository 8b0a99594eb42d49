/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(30_000);

/** Steps as a graph in the console: ids, needs, a condition and retries in the form; the run drawn; replay. */
describeInBrowser('workflow graphs in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => ({
      kind: 'text',
      text: lastUserMessage(body).toUpperCase(),
    })));
    await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/scripted' });
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it('builds two branches and a join, draws the run as a graph, and replays from a step', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('branches');
    await page.getByLabel('Step 0 agent').fill('worker');
    await page.getByLabel('Step 0 id').fill('left');
    await page.getByLabel('Step 0 action').fill('left');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 1 agent').fill('worker');
    await page.getByLabel('Step 1 id').fill('right');
    await page.getByLabel('Step 1 needs').fill('-');
    await page.getByLabel('Step 1 action').fill('right');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 2 agent').fill('worker');
    await page.getByLabel('Step 2 needs').fill('left, nowhere');
    await page.getByLabel('Step 2 action').fill('join {{steps.left.output}} {{steps.right.output}}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    // The form knows the step ids: the need that names none is refused beside its field, before anything is sent.
    await page.locator('#step-2-needs-error').getByText('no step has the id "nowhere"', { exact: false }).waitFor();
    await page.getByLabel('Step 2 needs').fill('left, right');
    await page.getByLabel('Step 2 runs when (JSON Logic)').fill('{"!=": [{"var": "steps.left.output"}, ""]}');
    await page.getByLabel('Step 2 attempts').fill('2');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'branches' }).waitFor();

    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    // The graph: left and right side by side in the first column, the join right of both, an edge from each.
    const graph = page.getByTestId('workflow-graph');
    const x = async (id: string) => (await graph.locator(`[data-node-id="${id}"]`).boundingBox())!;
    const [left, right, join] = [await x('left'), await x('right'), await x('2')];
    expect(left.x).toBe(right.x);
    expect(join.x).toBeGreaterThan(left.x + left.width);
    expect(
      await graph.locator('[data-edge]').evaluateAll((edges) => edges.map((e) => e.getAttribute('data-edge'))),
    ).toEqual(expect.arrayContaining(['left->2', 'right->2']));
    await expectText(page.locator('[data-step-id="2"]'), /Step 2[\s\S]*needs left, right[\s\S]*JOIN LEFT RIGHT/);
    expect(await accessibilityViolations(page)).toEqual([]);

    const calls = model.requests.length;
    await page.getByRole('button', { name: 'Replay from here (step right)' }).click();
    await page.getByText('Replay of').waitFor();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    await expectText(page.locator('[data-step-id="left"]'), /reused/);
    // right and the join ran again; left was reused.
    expect(model.requests.slice(calls).map(lastUserMessage)).toEqual(['right', 'join LEFT RIGHT']);
  });

  it('sets an input schema, refuses an input and a template it does not declare, and shows skips and gaps', async () => {
    await page.goto(`${app.url}/#/workflows/new`);
    await page.getByLabel('Name', { exact: true }).fill('typed');
    const schema = '{"type": "object", "properties": {"topic": {"type": "string"}}, "required": ["topic"]}';
    await page.getByLabel('Input schema (JSON Schema, optional)').fill(schema);
    await page.getByLabel('Step 0 agent').fill('worker');
    await page.getByLabel('Step 0 action').fill('about {{input.topc}}');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 1 agent').fill('worker');
    await page.getByLabel('Step 1 runs when (JSON Logic)').fill('false');
    await page.getByLabel('Step 1 action').fill('never');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    // The API names the step's action; the form shows its message there.
    await page.getByText('inputSchema declares no input.topc', { exact: false }).first().waitFor();
    await page.getByLabel('Step 0 action').fill('about {{input.topic}} {{input.topic.deeper}}');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'typed' }).waitFor();
    expect(await page.getByTestId('workflow-input-schema').textContent()).toContain('"required"');

    await page.getByLabel('Input (JSON object)').fill('{"topic": 7}');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.getByText('input.topic must be string', { exact: false }).first().waitFor();
    await page.getByLabel('Input (JSON object)').fill('{"topic": "cron"}');
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    await expectText(
      page.locator('[data-step-id="0"]'),
      /Led nowhere, left empty in the task: \{\{input\.topic\.deeper\}\}/,
    );
    await expectText(page.locator('[data-step-id="1"]'), /Skipped: its condition \(when\) was false/);
    expect(await accessibilityViolations(page)).toEqual([]);

    // The edit form shows the schema, and a blank one removes it.
    await page.getByRole('link', { name: '← Workflow' }).click();
    await page.getByText('Edit workflow').click();
    const field = page.getByLabel('Input schema (JSON Schema, optional)');
    expect(JSON.parse(await field.inputValue())).toEqual(JSON.parse(schema));
    await field.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-input-schema').getByText('none (any object)').waitFor();
  });

  async function expectText(locator: ReturnType<Page['locator']>, text: RegExp) {
    await locator.waitFor();
    expect(await locator.textContent()).toMatch(text);
  }
});
