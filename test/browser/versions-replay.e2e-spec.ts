/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, ScriptedServer, lastUserMessage } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(30_000);

/** Replaying a run, earlier versions from a history, and a workflow's overlap and run limit, in Chromium. */
describeInBrowser('replays, earlier versions and run limits in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(
    async () =>
      ({ model, app, browser, page } = await startConsole((body) => ({
        kind: 'text',
        text: lastUserMessage(body).toUpperCase(),
      }))),
  );
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);
  const noViolations = async () => expect(await accessibilityViolations(page)).toEqual([]);

  it('replays a run with its task edited: a new run, linked to the one it replays', async () => {
    const agent = (await app.request('POST', '/v1/agents', { name: 'echo', model: 'openai-compatible/m' })).body;
    const run = await app.request('POST', `/v1/agents/${agent.id}/run`, { task: 'say hi' }, { prefer: 'wait=10' });
    expect(run.body.output).toBe('SAY HI');
    await open(`agents/${agent.id}/runs/${run.body.id}`);
    await page.getByTestId('run-output').getByText('SAY HI').waitFor();
    await page.getByText('Replay', { exact: true }).click();
    await noViolations();
    await page.getByLabel('Task').fill('say bye');
    await page.getByRole('button', { name: 'Replay run' }).click();
    await page.getByTestId('run-output').getByText('SAY BYE').waitFor();
    const link = page.getByRole('link', { name: run.body.id });
    expect(await link.getAttribute('href')).toBe(`#/agent-runs/${run.body.id}`);
    const runs = (await app.request('GET', `/v1/agents/${agent.id}/runs`)).body.runs;
    expect(runs.map((r: { task: string; replayOf: string | null }) => [r.task, r.replayOf])).toEqual(
      expect.arrayContaining([
        ['say hi', null],
        ['say bye', run.body.id],
      ]),
    );
    await noViolations();
  });

  it('opens an agent as it was at an earlier version from its history', async () => {
    const agent = (
      await app.request('POST', '/v1/agents', { name: 'poet', model: 'openai-compatible/m', instructions: 'Rhyme.' })
    ).body;
    await app.request('PATCH', `/v1/agents/${agent.id}`, { instructions: 'Write prose.' });
    await open(`history/agent-${agent.id}`);
    await page.getByRole('link', { name: 'View version 2' }).waitFor();
    await page.getByRole('link', { name: 'View version 1' }).click();
    await page.getByRole('heading', { name: 'poet at version 1' }).waitFor();
    const shown = JSON.parse((await page.getByTestId('definition-version').textContent())!);
    expect(shown).toMatchObject({ instructions: 'Rhyme.', version: 1 });
    await noViolations();
  });

  it("edits a workflow's overlap and run limit; a bad limit is named beside its field", async () => {
    await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' });
    const workflow = (
      await app.request('POST', '/v1/workflows', {
        name: 'nightly',
        trigger: { type: 'schedule', cron: '0 2 * * *' },
        steps: [{ agent: 'worker', action: 'tidy' }],
      })
    ).body;
    await open(`workflows/${workflow.id}`);
    await page.getByTestId('workflow-overlap').getByText('allow').waitFor();
    await page.getByText('Edit workflow').click();
    await page.getByLabel('Overlap').selectOption('skip');
    await page.getByLabel('Max concurrent runs').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#wf-max-runs-error').getByText('must be a whole number from 1 to 1000').waitFor();
    expect((await app.request('GET', `/v1/workflows/${workflow.id}`)).body.version).toBe(1);
    await noViolations();

    await page.getByLabel('Max concurrent runs').fill('2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('workflow-max-runs').getByText('2').waitFor();
    await page.getByTestId('workflow-overlap').getByText('skip').waitFor();
    expect((await app.request('GET', `/v1/workflows/${workflow.id}`)).body).toMatchObject({
      overlap: 'skip',
      maxConcurrentRuns: 2,
      version: 2,
    });
  });
});
