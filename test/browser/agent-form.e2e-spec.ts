/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import {
  ChatCompletionsBody,
  lastUserMessage,
  ScriptedReply,
  ScriptedServer,
  toolResults,
} from '../support/scripted-model-server';
import {
  accessibilityViolations,
  describeInBrowser,
  elementsWiderThanViewport,
  screenshot,
  TestBrowser,
} from '../support/browser';
import { startMcpTestServers, McpTestServers } from '../support/mcp-test-servers';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

/**
 * The model's script: a clock tool call, then a structured answer that quotes the tool's result; the model "broken"
 * is always overloaded.
 */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  if (body.model === 'broken') return { kind: 'error', status: 503, message: 'overloaded' };
  const results = toolResults(body);
  if (lastUserMessage(body).includes('time') && !results.length) {
    return { kind: 'toolCalls', calls: [{ id: 'call_t', name: 'current_time', arguments: { timezone: 'UTC' } }] };
  }
  return { kind: 'text', text: JSON.stringify({ answer: results.length ? 'told the time' : 'nothing asked' }) };
}

jest.setTimeout(60_000);

/** Every field of an agent, set and changed in the console alone, then the agent run through an approval. */
describeInBrowser('an agent made and edited entirely in the console, in Chromium', () => {
  let mcp: McpTestServers;
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    mcp = await startMcpTestServers();
    ({ model, app, browser, page } = await startConsole(scriptedModel, undefined, {
      MCP_SERVERS_FILE: mcp.file,
      MCP_ALLOWED_HOSTS: '127.0.0.1',
      MODEL_MAX_RETRIES: '0',
    }));
  });
  afterAll(async () => {
    await stopConsole({ browser, app, model });
    await mcp?.close();
  });

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);
  /** The whole agent (a list item holds only some of its fields). */
  const agentNamed = async (name: string) => {
    const [item] = (await app.request('GET', `/v1/agents?name=${name}`)).body.agents;
    return item && (await app.request('GET', `/v1/agents/${item.id}`)).body;
  };

  it('creates an agent with tools, two of them needing approval, and an output schema, then edits each field', async () => {
    await open('agents/new');
    await page.getByLabel('Name', { exact: true }).fill('careful');
    await page.getByLabel('Provider').selectOption('openai-compatible');
    await page.getByLabel('Model name').fill('scripted');
    await page.getByLabel('Description (optional)').fill('Tells the time, carefully.');
    await page.getByLabel('Fallback models (optional)').fill('openai-compatible/backup');
    await page.getByLabel('Instructions').fill('Answer briefly.');
    // The MCP servers' tools are grouped under their server.
    const remote = page.getByRole('group', { name: 'MCP server remote' });
    await remote.getByRole('checkbox', { name: /mcp:remote\/echo/ }).check();
    await remote.getByRole('checkbox', { name: /mcp:remote\/add/ }).check();
    await page
      .getByRole('group', { name: 'Built-in' })
      .getByRole('checkbox', { name: /current_time/ })
      .check();
    await page.getByRole('checkbox', { name: 'current_time needs approval' }).check();
    await page.getByRole('checkbox', { name: 'mcp:remote/echo needs approval' }).check();

    // The schema is checked as it is typed, and an example is offered to start from.
    const schema = page.getByLabel('Output schema (JSON Schema, optional)');
    await page.getByRole('button', { name: 'Start from an example' }).click();
    await page.getByText('✓ A valid JSON Schema.').waitFor();
    await schema.fill('{"type": "objekt"}');
    await page.getByText(/type" must be one of/).waitFor();
    expect(await schema.getAttribute('aria-invalid')).toBe('true');
    await schema.fill('{"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}');
    await page.getByText('✓ A valid JSON Schema.').waitFor();
    // A guardrail on the task: personal data (emails, the kind a new check starts with), redacted.
    const onTask = page.getByRole('group', { name: 'On the task' });
    await onTask.getByRole('button', { name: 'Add a check on the task' }).click();
    const check = onTask.getByRole('group', { name: 'Check 1' });
    await check.getByLabel('Type').selectOption('pii');
    await check.getByLabel('Action').selectOption('redact');
    expect(await check.getByRole('checkbox', { name: 'email' }).isChecked()).toBe(true);
    await page.getByLabel('Thread window (messages)').fill('20');
    await page.getByLabel('Max steps').fill('5');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'agent-create');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'careful' }).waitFor();

    const created = await agentNamed('careful');
    expect(created).toMatchObject({
      model: 'openai-compatible/scripted',
      fallbackModels: ['openai-compatible/backup'],
      description: 'Tells the time, carefully.',
      instructions: 'Answer briefly.',
      tools: ['mcp:remote/echo', 'mcp:remote/add', 'current_time'],
      approvalRequired: ['current_time', 'mcp:remote/echo'],
      outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      memory: { maxMessages: 20 },
      maxSteps: 5,
      guardrails: { input: [{ type: 'pii', kinds: ['email'], action: 'redact' }] },
    });
    await page.getByTestId('agent-approvals').getByText('current_time, mcp:remote/echo').waitFor();

    // Edit: the same fields, filled with what the agent holds; change each one.
    await page.getByText('Edit agent').click();
    const form = page.getByRole('form', { name: 'Edit agent' });
    expect(await form.getByLabel('Name', { exact: true }).inputValue()).toBe('careful');
    expect(await form.getByRole('checkbox', { name: 'mcp:remote/echo needs approval' }).isChecked()).toBe(true);
    await form.getByLabel('Name', { exact: true }).fill('careful-clock');
    await form.getByLabel('Model name').fill('scripted-2');
    expect(await form.getByLabel('Fallback models (optional)').inputValue()).toBe('openai-compatible/backup');
    await form.getByLabel('Fallback models (optional)').fill('ollama/llama3.2\nopenai-compatible/backup');
    await form.getByLabel('Description (optional)').fill('Tells the time in one word.');
    await form.getByLabel('Instructions').fill('Answer in one word.');
    await form.getByRole('checkbox', { name: /^mcp:remote\/add Adds/ }).uncheck();
    await form.getByRole('checkbox', { name: 'mcp:remote/echo needs approval' }).uncheck();
    await form.getByRole('checkbox', { name: 'Every call to a tool of remote needs approval' }).check();
    await form
      .getByLabel('Output schema (JSON Schema, optional)')
      .fill(
        '{"type": "object", "properties": {"answer": {"type": "string", "maxLength": 100}}, "required": ["answer"]}',
      );
    await form.getByLabel('Thread window (messages)').fill('30');
    expect(await form.getByLabel('Recall (items)').isDisabled()).toBe(true);
    await form.getByLabel('Memory namespace').fill('users/{{context.user}}');
    await form.getByLabel('Recall (items)').fill('3');
    await form.getByLabel('Memory tools').check();
    await form.getByLabel('Working memory', { exact: true }).check();
    await form.getByLabel('Summarize').check();
    await form.getByLabel('Working memory schema (JSON Schema, optional)').fill('{"type": "array"}');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.locator(`[id$="working-schema-error"]`).waitFor();
    await form.getByLabel('Working memory schema (JSON Schema, optional)').fill('{"type": "object"}');
    await form.getByLabel('Max steps').fill('6');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByTestId('agent-version').getByText('2').waitFor();
    expect(await agentNamed('careful-clock')).toMatchObject({
      model: 'openai-compatible/scripted-2',
      fallbackModels: ['ollama/llama3.2', 'openai-compatible/backup'],
      description: 'Tells the time in one word.',
      instructions: 'Answer in one word.',
      tools: ['mcp:remote/echo', 'current_time'],
      approvalRequired: ['current_time', 'mcp:remote/*'],
      outputSchema: { properties: { answer: { maxLength: 100 } } },
      memory: {
        maxMessages: 30,
        namespace: 'users/{{context.user}}',
        recall: { limit: 3 },
        tools: true,
        working: { schema: { type: 'object' } },
        summarize: true,
      },
      maxSteps: 6,
    });
  });

  it('runs the agent: it waits for approval of its clock call, is approved, and answers in its schema', async () => {
    const agent = await agentNamed('careful-clock');
    await open(`agents/${agent.id}`);
    await page.getByLabel('Task').fill('What time is it?');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('waiting').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('told the time', { exact: false }).waitFor();
    const runs = (await app.request('GET', `/v1/agents/${agent.id}/runs`)).body.runs;
    expect(runs[0]).toMatchObject({ status: 'succeeded', outputObject: { answer: 'told the time' } });
    // Its guardrail looked at the task, found nothing, and says so.
    await page.getByTestId('run-guardrails').getByText('passed: pii check 0 on the task').waitFor();
  });

  it('shows a run that went on to a fallback model: each model called, and why the first was left', async () => {
    const agent = (
      await app.request('POST', '/v1/agents', {
        name: 'sturdy',
        model: 'openai-compatible/broken',
        fallbackModels: ['openai-compatible/scripted'],
      })
    ).body;
    await open(`agents/${agent.id}`);
    await page.getByTestId('agent-fallback-models').getByText('openai-compatible/scripted').waitFor();
    await page.getByLabel('Task').fill('Say something');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    const models = page.getByTestId('run-model-attempts');
    await models.getByText(/openai-compatible\/broken\s*left: provider_error 503/).waitFor();
    await models.getByText(/openai-compatible\/scripted\s*answered/).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows every problem a form finds beside its field after one submit, and sends nothing', async () => {
    const before = (await app.request('GET', '/v1/agents')).body.agents.length;
    await open('agents/new');
    await page.getByLabel('Model name').fill('scripted');
    await page.getByLabel('Max steps').fill('0');
    await page.getByLabel('Fallback models (optional)').fill('acme/big');
    await page.getByLabel('Output schema (JSON Schema, optional)').fill('{"type": ');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.locator('#agent-name-error').getByText('name must not be empty').waitFor();
    await page.locator('#agent-max-steps-error').getByText('must be a whole number from 1 to 100').waitFor();
    await page.locator('#agent-output-schema-error').getByText('Not valid JSON', { exact: false }).waitFor();
    await page
      .locator('#agent-fallback-models-error')
      .getByText('names no provider the service knows', { exact: false })
      .waitFor();
    for (const label of ['Name', 'Max steps', 'Output schema (JSON Schema, optional)', 'Fallback models (optional)']) {
      expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).toBe('true');
    }
    await page.getByRole('alert').getByText('4 fields need a change, marked beside each', { exact: false }).waitFor();
    expect((await app.request('GET', '/v1/agents')).body.agents.length).toBe(before);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('passes axe-core at phone width on the agent forms, with nothing wider than the screen', async () => {
    const agent = await agentNamed('careful-clock');
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    try {
      for (const hash of ['agents/new', `agents/${agent.id}`]) {
        await phone.goto(`${app.url}/#/${hash}`);
        if (hash !== 'agents/new') await phone.getByText('Edit agent').click();
        await phone.getByRole('group', { name: 'Built-in' }).first().waitFor();
        expect(await accessibilityViolations(phone)).toEqual([]);
        expect(await elementsWiderThanViewport(phone)).toEqual([]);
      }
    } finally {
      await phone.close();
    }
  });
});
