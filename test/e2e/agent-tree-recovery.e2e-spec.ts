import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  ChatCompletionsBody,
  ScriptedReply,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
  toolResults,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { TestApp, request, startTestApp, temporaryDataDir } from '../support/test-app';
import { twoInstancesOnTestDouble } from '../support/two-instances';

/**
 * Trees of runs across failures and instances: a kill -9 while a child runs, two instances on one EventStoreDB (the
 * test double), and one trace for the whole tree. The models are a scripted OpenAI-compatible server over HTTP (a
 * test double for a paid provider): the `boss` calls `helper` agents, which answer after `helperDelayMs`.
 */
function team(helpers: string[], helperDelayMs: number) {
  return (body: ChatCompletionsBody): ScriptedReply => {
    if (body.model === 'helper') return { kind: 'text', text: 'helped', delayMs: helperDelayMs };
    if (hasToolResult(body)) {
      return {
        kind: 'text',
        text: `boss: ${toolResults(body)
          .map((r) => String(r.content))
          .join(', ')}`,
      };
    }
    const calls = helpers.map((name, i) => ({ id: `call_${i}`, name: `agent_${name}`, arguments: { task: 'Help' } }));
    return { kind: 'toolCalls', calls };
  };
}

const bossCalls = (model: ScriptedServer<ChatCompletionsBody>) =>
  model.requests.filter((body) => body.model === 'boss');
const helperCalls = (model: ScriptedServer<ChatCompletionsBody>) =>
  model.requests.filter((body) => body.model === 'helper');

async function createTeam(url: string, helpers: string[]) {
  for (const name of helpers) {
    expect((await request(url, 'POST', '/v1/agents', { name, model: 'openai-compatible/helper' })).status).toBe(201);
  }
  const tools = helpers.map((name) => `agent:${name}`);
  const boss = await request(url, 'POST', '/v1/agents', { name: 'boss', model: 'openai-compatible/boss', tools });
  expect(boss.status).toBe(201);
  return boss.body.id as string;
}

describe('a tree of runs killed with -9 while a child runs', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let service: ServiceProcess | undefined;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(team(['helper-a'], 3000));
  });
  afterEach(async () => {
    await service?.kill();
    await model.close();
  });

  it('finishes after the restart, and no model call is made twice', async () => {
    const dataDir = temporaryDataDir();
    // A short lease: the child the killed process was executing ends as interrupted soon after the restart.
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_LEASE_MS: '1000' };
    service = await startServiceProcess(dataDir, env);
    const boss = await createTeam(service.url, ['helper-a']);
    const ran = await request(service.url, 'POST', `/v1/agents/${boss}/run`, { task: 'Go' });
    const path = `/v1/agents/${boss}/runs/${ran.body.id}`;
    // The child's model call is open: kill the process under it.
    await eventually(() => expect(helperCalls(model)).toHaveLength(1));
    expect((await request(service.url, 'GET', path)).body.status).toBe('waiting');
    await service.kill();

    service = await startServiceProcess(dataDir, env);
    const url = service.url;
    let parent: any;
    await eventually(async () => {
      parent = (await request(url, 'GET', path)).body;
      expect(parent.status).toBe('succeeded');
    }, 20_000);
    expect(parent.children).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(parent.output).toContain('{"error":"interrupted: The instance executing the run stopped before it ended"}');
    // A second resume, or the child executed again, would call a model after the end.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bossCalls(model)).toHaveLength(2);
    expect(helperCalls(model)).toHaveLength(1);
  }, 60_000);
});

describe('a tree of runs on two instances of one EventStoreDB (the test double)', () => {
  const two = twoInstancesOnTestDouble(0);

  it('runs each child once and resumes the parent once, whichever instance sees what', async () => {
    const helpers = ['helper-a', 'helper-b', 'helper-c', 'helper-d'];
    two.model.respondWith(team(helpers, 100));
    const boss = await createTeam(two.first.url, helpers);
    // Started on the second instance: both follow the log, either may queue, claim and resume.
    const ran = await two.second.request('POST', `/v1/agents/${boss}/run`, { task: 'Go' }, { prefer: 'wait=20' });
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.output).toBe('boss: "helped", "helped", "helped", "helped"');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(bossCalls(two.model)).toHaveLength(2);
    expect(helperCalls(two.model)).toHaveLength(4);
    const history = await two.first.request('GET', `/v1/agents/${boss}/runs/${ran.body.id}/events`);
    const types = history.body.events.map((e: { type: string }) => e.type);
    // Started, then resumed once; each child's end told once.
    expect(types.filter((type: string) => type === 'AgentRunStarted')).toHaveLength(2);
    expect(types.filter((type: string) => type === 'AgentRunChildRunEnded')).toHaveLength(4);
  });
});

describe('the trace of a tree of runs', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  const spans = new InMemorySpanExporter();
  beforeAll(async () => {
    model = await startScriptedOpenAIServer(team(['helper-a'], 0));
    app = await startTestApp({ spanExporter: spans, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  it("makes the child's invoke_agent span a child of the parent's execute_tool span, in one trace", async () => {
    const boss = await createTeam(app.url, ['helper-a']);
    const ran = await app.request('POST', `/v1/agents/${boss}/run`, { task: 'Go' }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('succeeded');
    let child: ReturnType<typeof spans.getFinishedSpans>[number] | undefined;
    await eventually(() => {
      child = spans.getFinishedSpans().find((s) => s.name === 'invoke_agent helper-a');
      expect(child).toBeDefined();
    });
    const tool = spans.getFinishedSpans().find((s) => s.name === 'execute_tool agent:helper-a')!;
    expect(child!.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(tool.spanContext().traceId);
    const post = spans.getFinishedSpans().find((s) => s.name.startsWith('POST /v1/agents/'))!;
    expect(tool.spanContext().traceId).toBe(post.spanContext().traceId);
  });
});
