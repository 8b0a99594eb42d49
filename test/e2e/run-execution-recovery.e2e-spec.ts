import { join } from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { agentRunStream } from '../../src/agents/agent-run/agent-run.events';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { startMcpTestServers } from '../support/mcp-test-servers';
import { eventually } from '../support/eventually';
import { readSse } from '../support/sse-client';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { twoInstancesOnTestDouble } from '../support/two-instances';
import { TestClock } from '../support/test-clock';

/** Runs survive the instance that took them: queued runs are taken up after a restart, stale ones end. */
describe('run execution across restarts', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let dataDir: string;
  let app: TestApp | undefined;
  const env = (more: Record<string, string> = {}) => ({ OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, ...more });

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
    dataDir = temporaryDataDir();
  });
  afterEach(async () => {
    await app?.close();
    await model.close();
  });

  async function seed(api: TestApp) {
    const agent = await api.request('POST', '/v1/agents', { name: 'a', model: 'openai-compatible/m' });
    const workflow = await api.request('POST', '/v1/workflows', { name: 'w', steps: [{ agent: 'a', action: 'go' }] });
    return { agentId: agent.body.id as string, workflowId: workflow.body.id as string };
  }

  it('takes up the runs queued before a restart', async () => {
    app = await startTestApp({ dataDir, env: env({ RUN_EXECUTOR_ENABLED: 'false' }) });
    const { agentId, workflowId } = await seed(app);
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push((await app.request('POST', `/v1/agents/${agentId}/run`, { task: `t${i}` })).body);
    const workflowRun = (await app.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: {} })).body;
    await app.close();
    expect(model.requests).toHaveLength(0);

    app = await startTestApp({ dataDir, env: env() });
    await eventually(async () => {
      const listed = (await app!.request('GET', `/v1/agents/${agentId}/runs?status=succeeded`)).body.runs;
      expect(listed).toHaveLength(4);
      const run = (await app!.request('GET', `/v1/workflows/${workflowId}/runs/${workflowRun.id}`)).body;
      expect(run.status).toBe('succeeded');
    });
    expect(model.requests.map((r) => r.messages.at(-1)?.content)).toEqual(expect.arrayContaining(['t0', 't1', 't2']));
    expect(model.requests).toHaveLength(4);
  });

  it('runs an agent whose tool has gone since without it, and says so in the run', async () => {
    const mcp = await startMcpTestServers();
    try {
      app = await startTestApp({ dataDir, env: env({ MCP_SERVERS_FILE: mcp.file, MCP_ALLOWED_HOSTS: '127.0.0.1' }) });
      const agent = await app.request('POST', '/v1/agents', {
        name: 'echoer',
        model: 'openai-compatible/m',
        tools: ['current_time', 'mcp:remote/echo'],
      });
      expect(agent.status).toBe(201);
      await app.close();
    } finally {
      await mcp.close();
    }
    app = await startTestApp({ dataDir, env: env() });
    const [{ id }] = (await app.request('GET', '/v1/agents')).body.agents;
    const ran = await app.request('POST', `/v1/agents/${id}/run`, { task: 'x' }, { prefer: 'wait=5' });
    expect(ran.body).toMatchObject({ status: 'succeeded', output: 'done' });
    expect(ran.body.warnings).toEqual([expect.stringContaining('mcp:remote/echo')]);
    expect(model.requests[0].tools?.map((t: any) => t.function.name)).toEqual(['current_time']);
  });

  it('ends a run in flight as interrupted when the service stops', async () => {
    model.respondWith(() => ({ kind: 'hang' }));
    app = await startTestApp({ dataDir, env: env() });
    const { agentId } = await seed(app);
    const run = (await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' })).body;
    await eventually(() => expect(model.openRequests()).toBe(1));
    // A client watching the run does not hold the shutdown open.
    const watching = readSse(`${app.url}/v1/agents/${agentId}/runs/${run.id}/stream`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await app.close();
    expect((await watching).messages.map((m) => m.event)).toEqual(expect.arrayContaining(['status']));
    app = await startTestApp({ dataDir, env: env() });
    const after = (await app.request('GET', `/v1/agents/${agentId}/runs/${run.id}`)).body;
    expect(after).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect(model.requests).toHaveLength(1);
  });

  it('ends a run left running by an instance that died, once its lease is stale', async () => {
    const clock = new TestClock();
    app = await startTestApp({ dataDir, clock, env: env({ RUN_EXECUTOR_ENABLED: 'false' }) });
    const { agentId } = await seed(app);
    const run = (await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' })).body;
    await app.close();
    // What an instance killed with -9 leaves behind: the run claimed, and then nothing more.
    const store = new SqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    await store.append(
      agentRunStream(run.id),
      [
        {
          id: '00000000-0000-4000-8000-000000000001',
          type: 'AgentRunStarted',
          data: { runId: run.id, executorId: 'dead-instance', warnings: [], startedAt: clock.now().toISOString() },
          metadata: { schemaVersion: 1 },
        },
      ],
      { expected: 0n },
    );
    await store.close();

    app = await startTestApp({ dataDir, clock, env: env({ RUN_LEASE_MS: '1000' }) });
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${run.id}`)).body.status).toBe('running');
    clock.advance(500);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await app.request('GET', `/v1/agents/${agentId}/runs/${run.id}`)).body.status).toBe('running');
    clock.advance(1000);
    await eventually(async () => {
      const after = (await app!.request('GET', `/v1/agents/${agentId}/runs/${run.id}`)).body;
      expect(after).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    });
    expect(model.requests).toHaveLength(0);
  });
});

describe('two instances on one EventStoreDB (test double)', () => {
  const two = twoInstancesOnTestDouble(20);

  it('executes each run once, whichever instance took the request', async () => {
    const agent = await two.first.request('POST', '/v1/agents', { name: 'shared', model: 'openai-compatible/m' });
    await eventually(async () =>
      expect((await two.second.request('GET', `/v1/agents/${agent.body.id}`)).status).toBe(200),
    );
    const workflow = await two.second.request('POST', '/v1/workflows', {
      name: 'two steps',
      steps: [
        { agent: 'shared', action: 'one' },
        { agent: 'shared', action: 'two' },
      ],
    });
    const posts = [];
    for (let i = 0; i < 12; i++) {
      const api = i % 2 ? two.first : two.second;
      posts.push(api.request('POST', `/v1/agents/${agent.body.id}/run`, { task: `run ${i}` }));
    }
    const triggered = await two.first.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: {} });
    const runs = (await Promise.all(posts)).map((r) => r.body.id);
    await eventually(async () => {
      const listed = (await two.first.request('GET', `/v1/agents/${agent.body.id}/runs?status=succeeded`)).body.runs;
      expect(listed).toHaveLength(14);
      const wfRun = (await two.second.request('GET', `/v1/workflows/${workflow.body.id}/runs/${triggered.body.id}`))
        .body;
      expect(wfRun.status).toBe('succeeded');
    }, 15_000);
    expect(two.model.requests).toHaveLength(14);
    expect(new Set(two.model.requests.map((r) => r.messages.at(-1)?.content)).size).toBe(14);
    expect(runs).toHaveLength(12);
  });
});
