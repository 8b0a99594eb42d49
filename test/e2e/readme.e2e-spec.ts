import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

const run = promisify(execFile);

/** The README's first session: the shell block after "A first session", as a reader pastes it. */
function firstSession(): string {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const from = readme.indexOf('A first session');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  if (from < 0 || !block) throw new Error('README.md has no first session');
  return block[1];
}

/**
 * Runs the README's first session with bash and curl against the service, its Ollama being the scripted model
 * server, so the commands stay true: ids captured, the run streamed live to its end, another cancelled, the
 * digest workflow run.
 */
describe("the README's first session", () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body);
      if (task.includes('poem')) return { kind: 'hang' };
      // The supervisor asks the researcher once, then answers from its result.
      const asksResearcher = body.tools?.some((tool) => tool.function.name === 'agent_researcher');
      if (asksResearcher && !hasToolResult(body))
        return { kind: 'toolCalls', calls: [{ name: 'agent_researcher', arguments: { task: `Find out: ${task}` } }] };
      return { kind: 'text', text: ['Answer ', `to: ${task.slice(0, 40)}`], chunkDelayMs: 50 };
    });
    app = await startTestApp({ env: { OLLAMA_BASE_URL: model.baseUrl.replace(/\/v1$/, '') } });
  });
  afterAll(async () => {
    await app?.close();
    await model?.close();
  });

  it('works as pasted', async () => {
    const script = firstSession().replaceAll('localhost:3000', new URL(app.url).host);
    const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 60_000 });
    const output = `${stderr}\n${stdout}`;

    expect(output).toContain('"id":"ollama","configured":true');
    // The run's stream, live to its end.
    // (as written, or all of it at once should the stream open after the text came: a busy machine)
    const deltas = [...stdout.matchAll(/event: delta\ndata: (\{.*\})\n/g)].map((m) => JSON.parse(m[1]).text);
    expect(deltas.join('')).toBe('Answer to: What day of the week is it in Tokyo?');
    expect(stdout).toMatch(/event: end\ndata: \{"id":"agentrun_[^"]+".*"status":"succeeded"/);
    // The second run was cancelled.
    const agent = (await app.request('GET', '/v1/agents?name=researcher')).body.agents[0];
    const runs = (await app.request('GET', `/v1/agents/${agent.id}/runs`)).body.runs;
    expect(runs.slice(0, 2).map((r: { task: string; status: string }) => [r.task, r.status])).toEqual([
      ['What day of the week is it in Tokyo?', 'succeeded'],
      ['Write a long poem about cron.', 'cancelled'],
    ]);
    expect(output).toMatch(/"task":"Write a long poem about cron\.".*"status":"cancelled"/);
    // The thread holds both turns, oldest first: the second run saw the first exchange.
    const page = /\{"messages":.*?"nextCursor":(null|"[^"]*")\}/.exec(stdout);
    const messages = JSON.parse(page?.[0] ?? '{}').messages;
    expect(messages.map((m: { role: string; content: string }) => [m.role, m.content.slice(0, 22)])).toEqual([
      ['user', 'My name is Ada. Which '],
      ['assistant', 'Answer to: My name is '],
      ['user', 'What is my name, and w'],
      ['assistant', 'Answer to: What is my '],
    ]);
    // The supervisor's call of the researcher was a child run, whose answer it was given.
    const supervisor = (await app.request('GET', '/v1/agents?name=supervisor')).body.agents[0];
    const supervised = (await app.request('GET', `/v1/agents/${supervisor.id}/runs`)).body.runs[0];
    expect(stdout).toContain(`{"id":"${supervised.id}"`);
    expect(supervised).toMatchObject({ status: 'succeeded', children: [{ agent: 'researcher', status: 'succeeded' }] });
    expect(supervised.toolCalls[0]).toMatchObject({
      tool: 'agent:researcher',
      output: 'Answer to: Find out: Is it a weekday in Tokyo?',
    });
    // The digest ran its three steps, each sending only its task.
    const trigger = JSON.parse(stdout.slice(stdout.lastIndexOf('{"id":"wfrun_')));
    expect(trigger).toMatchObject({ status: 'succeeded' });
    expect(trigger.steps.map((step: { task: string }) => step.task)).toEqual([
      'List three facts about cron',
      'Write a paragraph from these facts: Answer to: List three facts about cron',
      'Shorten this to two sentences: Answer to: Write a paragraph from these facts: Answ',
    ]);
  }, 90_000);
});
