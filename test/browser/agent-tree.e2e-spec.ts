/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  hasToolResult,
  toolResults,
} from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

/** The name the model sees for an agent's tool: `agent_<name>`, other characters than [A-Za-z0-9_-] as `_`. */
const toolName = (agent: string) => `agent_${agent.replace(/[^A-Za-z0-9_-]+/g, '_')}`;

/**
 * The models' script, by the model each request names: the supervisor calls the researcher and the writer in one
 * turn, then combines their answers; the boss calls the clerk, whose clock call waits for a person's approval.
 */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  const combined = () => ({
    kind: 'text' as const,
    text: `Combined: ${toolResults(body)
      .map((r) => String(r.content))
      .join(' | ')}`,
  });
  switch (body.model) {
    case 'supervisor':
      return hasToolResult(body)
        ? combined()
        : {
            kind: 'toolCalls',
            calls: [
              { id: 'call_r', name: toolName('researcher'), arguments: { task: 'Find facts' } },
              { id: 'call_w', name: toolName('writer'), arguments: { task: 'Write a line' } },
            ],
          };
    case 'researcher':
      return { kind: 'text', text: 'Owls hoot.', delayMs: 300, usage: { inputTokens: 7, outputTokens: 3 } };
    case 'writer':
      return { kind: 'text', text: 'A line.', delayMs: 300, usage: { inputTokens: 5, outputTokens: 2 } };
    case 'boss':
      return hasToolResult(body)
        ? combined()
        : { kind: 'toolCalls', calls: [{ id: 'call_c', name: toolName('clerk'), arguments: { task: 'The time?' } }] };
    case 'clerk':
      return hasToolResult(body)
        ? { kind: 'text', text: 'It is late.' }
        : { kind: 'toolCalls', calls: [{ id: 'call_time', name: 'current_time', arguments: { timezone: 'UTC' } }] };
    default:
      return { kind: 'error', status: 400, message: `no script for ${body.model}` };
  }
}

jest.setTimeout(60_000);

describeInBrowser('agents as tools in the console, in Chromium', () => {
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

  it('creates a supervisor with two sub-agents in the form, runs it, and shows the tree of its runs', async () => {
    const researcher = await createAgent({
      name: 'researcher',
      model: 'openai-compatible/researcher',
      description: 'Finds facts.',
    });
    const writer = await createAgent({ name: 'writer', model: 'openai-compatible/writer', description: 'Writes.' });

    await open('agents/new');
    await page.getByLabel('Name', { exact: true }).fill('supervisor');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Model name').fill('supervisor');
    const subAgents = page.getByRole('group', { name: 'Sub-agents (as tools)' });
    // Each agent with its description, read from the agent itself.
    await subAgents.getByText('Finds facts.').waitFor();
    await subAgents.getByRole('checkbox', { name: /^researcher Finds facts\./ }).check();
    await subAgents.getByRole('checkbox', { name: /^writer Writes\./ }).check();
    // Its own name is offered as recursion; left unchecked.
    expect(await subAgents.getByRole('checkbox', { name: /supervisor itself \(recursion/ }).isChecked()).toBe(false);
    // The built-in tools' picker does not take the agents for tools it no longer offers.
    expect(await page.getByRole('group', { name: /Chosen but not offered now/ }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/agents'));
    await page.getByRole('button', { name: 'Create agent' }).click();
    expect((await posted).postDataJSON().tools).toEqual(['agent:researcher', 'agent:writer']);
    await page.getByRole('heading', { name: 'supervisor' }).waitFor();
    const [listed] = (await app.request('GET', '/v1/agents?name=supervisor')).body.agents;
    const supervisor = (await app.request('GET', `/v1/agents/${listed.id}`)).body;
    expect(supervisor.tools).toEqual(['agent:researcher', 'agent:writer']);

    // The agent's page links to each agent it may call.
    const shown = page.getByTestId('agent-sub-agents');
    expect(await shown.getByRole('link', { name: 'researcher' }).getAttribute('href')).toBe(
      `#/agents/${researcher.id}`,
    );
    expect(await shown.getByRole('link', { name: 'writer' }).getAttribute('href')).toBe(`#/agents/${writer.id}`);

    await page.getByLabel('Task').fill('Go');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('Combined: "Owls hoot." | "A line."').waitFor();
    const runId = (await page.evaluate(() => location.hash)).split('/').pop()!;
    const run = (await app.request('GET', `/v1/agents/${supervisor.id}/runs/${runId}`)).body;
    expect(run.children).toHaveLength(2);

    // The tree: the supervisor's run, and under it each child run, succeeded, with a link to it.
    const tree = page.getByTestId('run-tree');
    const nodes = tree.getByTestId('run-tree-node');
    await nodes.nth(2).waitFor();
    expect(await nodes.count()).toBe(3);
    for (const [i, agent] of [researcher, writer].entries()) {
      const child = tree.locator(`[data-run-id="${run.children[i].runId}"]`);
      await child.getByText('succeeded').waitFor();
      expect(await child.getByRole('link', { name: agent.name }).getAttribute('href')).toBe(
        `#/agents/${agent.id}/runs/${run.children[i].runId}`,
      );
    }
    expect(await tree.getByRole('link', { name: 'supervisor' }).getAttribute('aria-current')).toBe('page');
    const total = run.totalUsage;
    expect(total.inputTokens).toBe(run.usage.inputTokens + 12);
    await page.getByTestId('run-total-usage').getByText(`${total.inputTokens} tokens in`, { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // A child's page: who started it, its answer, and the same tree with this run marked.
    await tree.getByRole('link', { name: 'researcher' }).click();
    await page.getByTestId('run-output').getByText('Owls hoot.').waitFor();
    await page.getByTestId('run-parent').getByText('of supervisor', { exact: false }).waitFor();
    await page.getByTestId('run-tree').getByRole('link', { name: 'supervisor' }).waitFor();
    expect(
      await page.getByTestId('run-tree').getByRole('link', { name: 'researcher' }).getAttribute('aria-current'),
    ).toBe('page');
    await page.getByTestId('run-parent').getByRole('link', { name: runId }).click();
    await page.getByTestId('run-output').getByText('Combined:', { exact: false }).waitFor();

    // Editing the supervisor shows its sub-agents checked.
    await open(`agents/${supervisor.id}`);
    await page.getByText('Edit agent').click();
    const form = page.getByRole('form', { name: 'Edit agent' });
    await form.getByText('Finds facts.').waitFor();
    expect(await form.getByRole('checkbox', { name: /^researcher / }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /^writer / }).isChecked()).toBe(true);
  });

  it("shows a child's pending approval on the parent's page, and approves it through the child's run", async () => {
    const clerk = await createAgent({
      name: 'clerk',
      model: 'openai-compatible/clerk',
      tools: ['current_time'],
      approvalRequired: ['current_time'],
    });
    const helper = await createAgent({ name: 'helper', model: 'openai-compatible/helper' });
    const boss = await createAgent({
      name: 'boss',
      model: 'openai-compatible/boss',
      tools: ['agent:clerk', 'agent:helper', 'agent:boss'],
    });
    expect((await app.request('DELETE', `/v1/agents/${helper.id}`)).status).toBeLessThan(300);

    await open(`agents/${boss.id}`);
    // An agent it may call that is archived now is still shown, without a link; itself, as recursion.
    await page
      .getByTestId('agent-sub-agents')
      .getByText('no active agent has this name now', { exact: false })
      .waitFor();
    await page.getByTestId('agent-sub-agents').getByText('itself: recursion', { exact: false }).waitFor();
    await page.getByLabel('Task').fill('Go');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('waiting').waitFor();
    await page.getByTestId('run-waiting-on').getByRole('link', { name: 'clerk' }).waitFor();
    const approval = page.getByTestId('pending-approval');
    await approval.getByTestId('approval-run').getByText('sub-agent run of clerk', { exact: false }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const decided = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/approvals'));
    await approval.getByRole('button', { name: 'Approve' }).click();
    const url = (await decided).url();
    expect(url).toContain(`/v1/agents/${clerk.id}/runs/`);
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('It is late.', { exact: false }).waitFor();
    await page.getByTestId('run-tree').locator('[data-testid="run-tree-node"] .badge-succeeded').nth(1).waitFor();
    expect(await page.getByTestId('pending-approval').count()).toBe(0);

    // Its edit form: itself checked as recursion, the archived agent kept, listed apart.
    await open(`agents/${boss.id}`);
    await page.getByText('Edit agent').click();
    const form = page.getByRole('form', { name: 'Edit agent' });
    expect(await form.getByRole('checkbox', { name: /^boss itself \(recursion/ }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /^clerk / }).isChecked()).toBe(true);
    const kept = form.getByRole('group', { name: 'Chosen but no active agent has this name now' });
    expect(await kept.getByRole('checkbox', { name: 'agent:helper' }).isChecked()).toBe(true);
  });
});
