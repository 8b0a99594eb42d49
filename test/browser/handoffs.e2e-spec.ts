/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { ChatCompletionsBody, lastUserMessage, ScriptedReply, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

/** What the desk's model writes of the conversation when it hands it on. */
const SUMMARY = 'The customer wants a refund for invoice 42.';

/**
 * The models' script, by the model each request names: the desk hands the conversation to billing with a summary,
 * billing answers, and the judge allows any task but one that mentions a competitor.
 */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  switch (body.model) {
    case 'desk':
      return {
        kind: 'toolCalls',
        calls: [{ id: 'call_transfer', name: 'transfer_to_billing', arguments: { summary: SUMMARY } }],
      };
    case 'billing':
      return {
        kind: 'text',
        text: `Refund on its way (${lastUserMessage(body).includes(SUMMARY) ? 'summed up' : 'no summary'}).`,
      };
    case 'judge': {
      const competitor = lastUserMessage(body).includes('Acme');
      const verdict = competitor
        ? { allow: false, reason: 'names a competitor' }
        : { allow: true, reason: 'a fair ask' };
      return { kind: 'text', text: JSON.stringify(verdict) };
    }
    default:
      return { kind: 'error', status: 400, message: `no script for ${body.model}` };
  }
}

jest.setTimeout(60_000);

describeInBrowser('handoffs and judge guardrails in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole(scriptedModel, undefined, { MODEL_MAX_RETRIES: '0' }));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);
  const createAgent = async (body: Record<string, unknown>) => {
    const created = await app.request('POST', '/v1/agents', body);
    expect(created.status).toBe(201);
    return created.body;
  };
  const sentTo = (name: string) => model.requests.filter((body) => body.model === name);

  it('sets a handoff and a judge in the form, runs the agent, and shows who it handed to and who answered', async () => {
    const billing = await createAgent({ name: 'billing', model: 'openai-compatible/billing' });
    const judge = await createAgent({ name: 'judge', model: 'openai-compatible/judge' });

    await open('agents/new');
    await page.getByLabel('Name', { exact: true }).fill('desk');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Model name').fill('desk');

    // The handoff to billing, sent a summary the desk's model writes.
    const handoffs = page.getByRole('group', { name: 'Handoffs' });
    await handoffs.getByRole('checkbox', { name: 'billing' }).check();
    await handoffs.getByLabel('What billing is sent').selectOption('summary');

    // A judge on the task: the judge agent, picked from the active agents, blocks what it does not allow.
    const onTask = page.getByRole('group', { name: 'On the task' });
    await onTask.getByRole('button', { name: 'Add a check on the task' }).click();
    const check = onTask.getByRole('group', { name: 'Check 1' });
    await check.getByLabel('Type').selectOption('agent');
    const judgePicker = check.getByLabel('Judge agent');
    await judgePicker.locator('option', { hasText: 'judge' }).waitFor({ state: 'attached' });
    await judgePicker.selectOption('judge');
    expect(await check.getByLabel('Action').inputValue()).toBe('block');
    expect(await accessibilityViolations(page)).toEqual([]);

    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/agents'));
    await page.getByRole('button', { name: 'Create agent' }).click();
    expect((await posted).postDataJSON()).toMatchObject({
      handoffs: [{ agent: 'billing', input: 'summary' }],
      guardrails: { input: [{ type: 'agent', agent: 'judge', action: 'block' }] },
    });
    await page.getByRole('heading', { name: 'desk' }).waitFor();
    const [listed] = (await app.request('GET', '/v1/agents?name=desk')).body.agents;
    const desk = (await app.request('GET', `/v1/agents/${listed.id}`)).body;
    expect(desk.handoffs).toEqual([{ agent: 'billing', input: 'summary' }]);
    expect(desk.guardrails).toEqual({ input: [{ type: 'agent', agent: 'judge', action: 'block' }] });

    // The agent's page lists the handoff, with a link to billing and what it is sent.
    const shown = page.getByTestId('agent-handoffs');
    await shown.getByText('sent: summary', { exact: false }).waitFor();
    expect(await shown.getByRole('link', { name: 'billing' }).getAttribute('href')).toBe(`#/agents/${billing.id}`);

    // Run: the judge allows the task, the desk hands off, billing answers with the summary it was sent.
    await page.getByLabel('Task').fill('My invoice is wrong');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('Refund on its way (summed up).').waitFor();
    const runId = (await page.evaluate(() => location.hash)).split('/').pop()!;
    const run = (await app.request('GET', `/v1/agents/${desk.id}/runs/${runId}`)).body;
    expect(run).toMatchObject({
      answeredBy: billing.id,
      handoffs: [{ from: desk.id, to: billing.id, input: 'summary' }],
    });
    expect(sentTo('judge')).toHaveLength(1);
    expect(lastUserMessage(sentTo('billing')[0])).toContain(SUMMARY);

    const handoff = page.getByTestId('run-handoffs').getByRole('listitem');
    expect(await handoff.count()).toBe(1);
    await handoff.getByText('sent the summary', { exact: false }).waitFor();
    expect(await handoff.getByRole('link', { name: 'desk' }).getAttribute('href')).toBe(`#/agents/${desk.id}`);
    expect(await handoff.getByRole('link', { name: 'billing' }).getAttribute('href')).toBe(`#/agents/${billing.id}`);
    expect(await handoff.locator('time').getAttribute('datetime')).toBe(run.handoffs[0].at);
    const answered = page.getByTestId('run-answered-by');
    await answered.getByText('answered by billing').waitFor();
    expect(await answered.getByRole('link', { name: 'billing' }).getAttribute('href')).toBe(`#/agents/${billing.id}`);
    // The judge's verdict on the task, with its reason.
    await page.getByTestId('run-guardrails').getByText('passed: agent check 0 on the task: a fair ask').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A task the judge does not allow fails before any model call of the desk, and hands nothing on.
    await open(`agents/${desk.id}`);
    await page.getByLabel('Task').fill('Is Acme cheaper?');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('failed').waitFor();
    await page
      .getByTestId('run-guardrails')
      .getByText('blocked: agent check 0 on the task: names a competitor')
      .waitFor();
    expect(await page.getByTestId('run-handoffs').count()).toBe(0);
    expect(await page.getByTestId('run-answered-by').count()).toBe(0);

    // Editing the desk shows its handoff and judge as saved; a change of what billing is sent is patched.
    await open(`agents/${desk.id}`);
    await page.getByText('Edit agent').click();
    const form = page.getByRole('form', { name: 'Edit agent' });
    const editHandoffs = form.getByRole('group', { name: 'Handoffs' });
    await editHandoffs.getByLabel('What billing is sent').waitFor();
    expect(await editHandoffs.getByRole('checkbox', { name: 'billing' }).isChecked()).toBe(true);
    expect(await editHandoffs.getByLabel('What billing is sent').inputValue()).toBe('summary');
    // Not offered to hand off to itself.
    expect(await editHandoffs.getByRole('checkbox', { name: 'desk' }).count()).toBe(0);
    const editCheck = form.getByRole('group', { name: 'On the task' }).getByRole('group', { name: 'Check 1' });
    expect(await editCheck.getByLabel('Judge agent').inputValue()).toBe(judge.name);
    await editHandoffs.getByLabel('What billing is sent').selectOption('last_user');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('agent-version').getByText('2').waitFor();
    const saved = (await app.request('GET', `/v1/agents/${desk.id}`)).body;
    expect(saved.handoffs).toEqual([{ agent: 'billing', input: 'last_user' }]);
    expect(saved.guardrails).toEqual({ input: [{ type: 'agent', agent: 'judge', action: 'block' }] });
    await page.getByTestId('agent-handoffs').getByText('sent: last user message', { exact: false }).waitFor();
  });
});
