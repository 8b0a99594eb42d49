/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ChatCompletionsBody, lastUserMessage, ScriptedServer } from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, TestBrowser } from '../support/browser';
import { TestApp, request } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

jest.setTimeout(60_000);

describeInBrowser('the other protocols in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ model, app, browser, page } = await startConsole((body) => ({
      kind: 'text',
      text: `echo: ${lastUserMessage(body)}`,
    })));
  });
  afterAll(() => stopConsole({ browser, app, model }));

  it("shows an agent's MCP tool name and client configuration, and a run asked for over MCP as such", async () => {
    const created = await app.request('POST', '/v1/agents', { name: 'Help desk', model: 'openai-compatible/m' });
    await page.goto(`${app.url}/#/agents/${created.body.id}`);
    await page.getByText('Use from other tools').click();
    const tool = await page.getByTestId('agent-mcp-tool').textContent();
    expect(tool).toMatch(/^agent_Help_desk_[0-9a-f]{8}$/);
    expect(JSON.parse((await page.getByTestId('agent-mcp-config').textContent())!)).toMatchObject({
      mcpServers: { workflows: { url: `${app.url}/mcp` } },
    });
    expect(await page.getByTestId('agent-a2a-card').textContent()).toBe(
      `${app.url}/a2a/Help%20desk/.well-known/agent-card.json`,
    );
    expect(await page.getByTestId('agent-a2a-client').textContent()).toContain(`${app.url}/a2a/Help%20desk/`);
    // The card link, for a name with a space in it, is one the A2A server answers.
    const card = await request(app.url, 'GET', '/a2a/Help%20desk/.well-known/agent-card.json');
    expect([card.status, card.body.name]).toEqual([200, 'Help desk']);
    expect(await accessibilityViolations(page)).toEqual([]);

    // The name the page shows is the one the MCP server offers: a call by it runs the agent.
    const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`));
    const client = new Client({ name: 'console-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: tool!, arguments: { task: 'Hello' } });
      const { runId } = result._meta as { runId: string };
      await page.goto(`${app.url}/#/agents/${created.body.id}/runs/${runId}`);
      await expect(page.getByTestId('run-source').textContent()).resolves.toBe(`MCP session ${transport.sessionId}`);
    } finally {
      await client.close();
    }
  });
});
