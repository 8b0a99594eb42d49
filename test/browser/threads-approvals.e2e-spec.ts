/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  lastUserMessage,
  toolResults,
} from '../support/scripted-model-server';
import { accessibilityViolations, describeInBrowser, holdAnswers, TestBrowser } from '../support/browser';
import { TestApp } from '../support/test-app';
import { startConsole, stopConsole } from '../support/console-fixture';

/** The model's script: a tool call that needs approval, a structured answer, or the task echoed in pieces. */
function scriptedModel(body: ChatCompletionsBody): ScriptedReply {
  const task = lastUserMessage(body);
  if (task.includes('time')) {
    const results = toolResults(body);
    if (results.length) return { kind: 'text', text: `Tool said ${results[0].content}` };
    return { kind: 'toolCalls', calls: [{ id: 'call_t', name: 'current_time', arguments: { timezone: 'UTC' } }] };
  }
  // A story that stops after its first words: a turn surely still going when the next message comes.
  if (task.includes('story')) return { kind: 'text', text: ['Once upon', ' a time'], chunkDelayMs: 30_000 };
  if (task.includes('catalogue')) return { kind: 'text', text: '{"title":"Cron","pages":3}' };
  const earlier = body.messages.filter((m) => m.role === 'user').length - 1;
  return { kind: 'text', text: ['Answer ', `to "${task}" `, `after ${earlier} earlier tasks`], chunkDelayMs: 100 };
}

jest.setTimeout(30_000);

describeInBrowser('threads, approvals and structured answers in the console, in Chromium', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => ({ model, app, browser, page } = await startConsole(scriptedModel)));
  afterAll(() => stopConsole({ browser, app, model }));

  const open = (hash: string) => page.goto(`${app.url}/#/${hash}`);
  const axe = async (hash: string, heading: string) => {
    await open(hash);
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  };

  it('holds a conversation on a thread: the messages, a box for the next task, the live answer', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'talker', model: 'openai-compatible/m' });
    await open(`agents/${agent.body.id}`);
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.getByRole('heading', { name: 'Thread', exact: true }).waitFor();
    await page.getByLabel('Next task').fill('first question');
    await page.getByRole('button', { name: 'Send' }).click();
    // The answer shows as it is written, then takes its place in the conversation.
    await page.getByTestId('live-answer').getByText('Answer', { exact: false }).waitFor();
    const conversation = page.getByTestId('conversation');
    await conversation.getByText('after 0 earlier tasks', { exact: false }).waitFor();
    await page.getByLabel('Next task').fill('second question');
    await page.getByRole('button', { name: 'Send' }).click();
    await conversation.getByText('after 1 earlier tasks', { exact: false }).waitFor();
    await page.getByTestId('live-answer').waitFor({ state: 'detached' });
    expect(await conversation.locator('li').allTextContents()).toEqual([
      expect.stringContaining('first question'),
      expect.stringContaining('Answer to "first question"'),
      expect.stringContaining('second question'),
      expect.stringContaining('Answer to "second question"'),
    ]);
    const hash = await page.evaluate(() => location.hash.slice(2));
    await axe(hash, 'Thread');
  });

  it('sends a message that interrupts the turn still going, and says so', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'teller', model: 'openai-compatible/m' });
    const thread = await app.request('POST', '/v1/threads', { agentId: agent.body.id });
    await open(`threads/${thread.body.id}`);
    await page.getByLabel('Next task').fill('tell me a story');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('live-answer').getByText('Once upon').waitFor();
    await page.getByLabel('Next task').fill('no, a joke');
    await page.getByLabel('If a turn is still going').selectOption('interrupt');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByTestId('multitask-note')
      .getByText('interrupted the turn that was going', { exact: false })
      .waitFor();
    const conversation = page.getByTestId('conversation');
    await conversation.getByText('to "no, a joke"', { exact: false }).waitFor();
    const story = conversation.locator('li', { hasText: 'Once upon' });
    await story.getByTestId('interrupted').waitFor();
    const sent = (await app.request('GET', `/v1/agents/${agent.body.id}/runs`)).body.runs;
    expect(sent.map((run: any) => [run.task, run.status])).toEqual(
      expect.arrayContaining([
        ['tell me a story', 'cancelled'],
        ['no, a joke', 'succeeded'],
      ]),
    );
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('approves a waiting tool call with edited arguments', async () => {
    const agent = await app.request('POST', '/v1/agents', {
      name: 'careful',
      model: 'openai-compatible/m',
      tools: ['current_time'],
      approvalRequired: ['current_time'],
    });
    await open(`agents/${agent.body.id}`);
    await page.getByLabel('Task').fill('What time is it?');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('run-status').getByText('waiting').waitFor();
    const args = page.getByLabel('Arguments for current_time');
    expect(JSON.parse(await args.inputValue())).toEqual({ timezone: 'UTC' });
    const hash = await page.evaluate(() => location.hash.slice(2));
    expect(await accessibilityViolations(page)).toEqual([]);
    await args.fill('{"timezone": "Asia/Tokyo"}');
    // The decision's answer, and the run the page reads when the stream tells of the decision, reach the page only
    // after the stream has shown the run's end: older views than the page has, which must not take the end back.
    const late = await holdAnswers(page, new RegExp(`/runs/${hash.split('/').pop()}(/approvals)?$`));
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('Asia/Tokyo', { exact: false }).waitFor();
    await late.release();
    expect(await page.getByTestId('run-status').textContent()).toBe('succeeded');
    await page.locator('.tool-calls').getByText('Asia/Tokyo', { exact: false }).first().waitFor();
    await page.reload();
    await page.locator('.tool-calls').getByText('Asia/Tokyo', { exact: false }).first().waitFor();
  });

  it('rejects a waiting tool call with a reason', async () => {
    const agent = (await app.request('GET', '/v1/agents?name=careful')).body.agents[0];
    const run = await app.request('POST', `/v1/agents/${agent.id}/run`, { task: 'time again?' }, { prefer: 'wait=5' });
    expect(run.body.status).toBe('waiting');
    await open(`agents/${agent.id}/runs/${run.body.id}`);
    const late = await holdAnswers(page, /\/approvals$/);
    await page.getByLabel('Reason (optional)').fill('not allowed');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('run-status').getByText('succeeded').waitFor();
    await page.getByTestId('run-output').getByText('not allowed', { exact: false }).waitFor();
    await late.release();
    expect(await page.getByTestId('run-status').textContent()).toBe('succeeded');
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
  });

  it('shows a structured answer as formatted JSON', async () => {
    const agent = await app.request('POST', '/v1/agents', {
      name: 'cataloguer',
      model: 'openai-compatible/m',
      outputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    });
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'catalogue it' },
      { prefer: 'wait=5' },
    );
    expect(run.body.status).toBe('succeeded');
    await open(`agents/${agent.body.id}/runs/${run.body.id}`);
    const object = page.getByTestId('run-output-object');
    await object.waitFor();
    expect(await object.textContent()).toBe(JSON.stringify({ title: 'Cron', pages: 3 }, null, 2));
  });

  it('approves a workflow run waiting at an approval step, with data for the next step', async () => {
    await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' });
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'reviewed',
      steps: [
        { approval: 'Go ahead with the post?' },
        { agent: 'writer', action: 'write about {{steps.0.output.topic}}' },
      ],
    });
    const triggered = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: {} });
    const hash = `workflows/${workflow.body.id}/runs/${triggered.body.id}`;
    await open(hash);
    const approval = page.getByTestId('workflow-approval');
    await approval.getByText('Go ahead with the post?').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel("Data (optional JSON object, the step's output)").fill('{"topic": "cron"}');
    // The decision's answer comes after the page has seen the run end (and stopped refreshing it).
    const late = await holdAnswers(page, /\/approvals$/);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('workflow-run-status').getByText('succeeded').waitFor();
    await late.release();
    expect(await page.getByTestId('workflow-run-status').textContent()).toBe('succeeded');
    // The next step's answer, which the scripted model makes from the task it was sent.
    await page.getByTestId('timeline').locator('pre.output', { hasText: 'write about cron' }).waitFor();
  });
});
