import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { expectProblem } from '../support/problem-expectations';
import { ScriptedServer, ChatCompletionsBody, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

/** A server that lists models as OpenAI's `GET /v1/models` does, counting the requests it gets. */
async function startModelList(models: string[]): Promise<{ baseUrl: string; asked: () => number; close(): void }> {
  let asked = 0;
  const server: Server = createServer((req, res) => {
    asked++;
    if (req.url !== '/v1/models') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, asked: () => asked, close: () => server.close() };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('what a new user sees first: providers, newest runs first, errors that say what to do', () => {
  let app: TestApp;
  let list: Awaited<ReturnType<typeof startModelList>>;
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    list = await startModelList(['qwen2.5', 'llama3.2']);
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done' }));
  });
  afterAll(async () => {
    list.close();
    await model.close();
  });
  afterEach(() => app?.close());

  it('lists every provider, whether it is configured, the variable to set, and the models of those that list them', async () => {
    const port = await closedPort();
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: list.baseUrl, OLLAMA_BASE_URL: `http://127.0.0.1:${port}` },
    });
    const response = await app.request('GET', '/v1/providers');
    expect(response.status).toBe(200);
    expect(response.body.providers).toEqual([
      { id: 'openai', configured: false, variable: 'OPENAI_API_KEY', models: null, modelsError: null },
      { id: 'anthropic', configured: false, variable: 'ANTHROPIC_API_KEY', models: null, modelsError: null },
      {
        id: 'ollama',
        configured: true,
        variable: 'OLLAMA_BASE_URL',
        models: null,
        modelsError: `http://127.0.0.1:${port}/v1/models: unreachable (ECONNREFUSED)`,
      },
      {
        id: 'openai-compatible',
        configured: true,
        variable: 'OPENAI_COMPATIBLE_BASE_URL',
        models: ['llama3.2', 'qwen2.5'],
        modelsError: null,
      },
    ]);
    // Kept briefly: a second look within 30 s asks nobody; a later one asks again.
    const asked = list.asked();
    await app.request('GET', '/v1/providers');
    expect(list.asked()).toBe(asked);
    app.clock.advance(31_000);
    await app.request('GET', '/v1/providers');
    expect(list.asked()).toBe(asked + 1);
  });

  it('lists runs newest first with order=desc, paging backwards, and shows the latest run beside lastRun', async () => {
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    const agent = (await app.request('POST', '/v1/agents', { name: 'researcher', model: 'openai-compatible/m' })).body;
    const none = (await app.request('GET', '/v1/agents')).body.agents[0];
    expect(none).toMatchObject({ lastRun: null, latestRun: null });
    const runs: any[] = [];
    for (let i = 0; i < 3; i++) {
      app.clock.advance(1000);
      runs.push(
        (await app.request('POST', `/v1/agents/${agent.id}/run`, { task: `t${i}` }, { prefer: 'wait=10' })).body,
      );
    }
    const ids = runs.map((run) => run.id);
    const first = await app.request('GET', `/v1/agents/${agent.id}/runs?order=desc&limit=2`);
    expect(first.body.runs.map((run: any) => run.id)).toEqual([ids[2], ids[1]]);
    const next = await app.request(
      'GET',
      `/v1/agents/${agent.id}/runs?order=desc&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(next.body).toEqual({ runs: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    const oldest = await app.request('GET', `/v1/agents/${agent.id}/runs?order=asc&status=succeeded`);
    expect(oldest.body.runs.map((run: any) => run.id)).toEqual(ids);

    const listed = (await app.request('GET', '/v1/agents')).body.agents[0];
    expect(listed.latestRun).toEqual({ id: ids[2], status: 'succeeded', at: runs[2].createdAt });
    expect(listed.lastRun).toBe(runs[2].createdAt);

    const workflow = (
      await app.request('POST', '/v1/workflows', { name: 'digest', steps: [{ agent: 'researcher', action: 'go' }] })
    ).body;
    expect(workflow.latestRun).toBeNull();
    const wfRuns: any[] = [];
    for (let i = 0; i < 2; i++) {
      app.clock.advance(1000);
      wfRuns.push(
        (await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: {} }, { prefer: 'wait=10' })).body,
      );
    }
    const wfDesc = await app.request('GET', `/v1/workflows/${workflow.id}/runs?order=desc`);
    expect(wfDesc.body.runs.map((run: any) => run.id)).toEqual([wfRuns[1].id, wfRuns[0].id]);
    const latest = { id: wfRuns[1].id, status: 'succeeded', at: wfRuns[1].createdAt };
    expect((await app.request('GET', '/v1/workflows')).body.workflows[0]).toMatchObject({
      lastRun: wfRuns[1].createdAt,
      latestRun: latest,
    });
    expect((await app.request('GET', `/v1/workflows/${workflow.id}`)).body.latestRun).toEqual(latest);

    const bad = await app.request('GET', `/v1/workflows/${workflow.id}/runs?order=newest`);
    expectProblem(bad, 400, 'validation-error');
    expect(bad.body.errors).toEqual([{ path: 'order', message: 'order must be one of asc, desc' }]);
  });

  it('hints that steps take names when a step is given an agent id, and says when the named agent is archived', async () => {
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    const agent = (await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' })).body;
    const old = (await app.request('POST', '/v1/agents', { name: 'editor', model: 'openai-compatible/m' })).body;
    expect((await app.request('DELETE', `/v1/agents/${old.id}`)).status).toBe(200);
    const response = await app.request('POST', '/v1/workflows', {
      name: 'digest',
      steps: [
        { agent: agent.id, action: 'write' },
        { agent: 'editor', action: 'edit' },
        { agent: 'agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J', action: 'x' },
      ],
    });
    expectProblem(response, 422, 'unprocessable');
    expect(response.body.errors).toEqual([
      {
        path: 'steps[0].agent',
        message: `no agent is named "${agent.id}"; steps name agents by name, not by id: this id is the agent named "writer"`,
      },
      { path: 'steps[1].agent', message: `the agent named "editor" (${old.id}) is archived` },
      {
        path: 'steps[2].agent',
        message: 'no agent is named "agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J"; steps name agents by name, not by id',
      },
    ]);
  });

  it('takes a step action as long as a run task, and a context of input, steps or all only', async () => {
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' });
    const long = `Write from {{input.notes}}. ${'Keep to the facts. '.repeat(6000)}`.slice(0, 100_000);
    const created = await app.request('POST', '/v1/workflows', {
      name: 'long',
      steps: [{ agent: 'writer', action: long, context: 'input' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.steps).toEqual([{ agent: 'writer', action: long, context: 'input' }]);

    const tooLong = await app.request('POST', '/v1/workflows', {
      name: 'too long',
      steps: [{ agent: 'writer', action: `${long}x` }],
    });
    expectProblem(tooLong, 400, 'validation-error');
    expect(tooLong.body.errors).toEqual([{ path: 'steps[0].action', message: expect.stringContaining('100000') }]);
    const badContext = await app.request('POST', '/v1/workflows', {
      name: 'bad',
      steps: [{ agent: 'writer', action: 'go', context: 'everything' }],
    });
    expectProblem(badContext, 400, 'validation-error');
    expect(badContext.body.errors).toEqual([
      { path: 'steps[0].context', message: 'context must be one of input, steps, all' },
    ]);
  });

  it('documents an example of its own for each problem status, for /docs to show', async () => {
    app = await startTestApp();
    const document = (await app.request('GET', '/v1/openapi.json')).body;
    const examples = new Map<number, string>();
    for (const item of Object.values<any>(document.paths)) {
      for (const operation of Object.values<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
          const problem = response.content?.['application/problem+json'];
          if (!problem) continue;
          expect({ status, example: problem.example?.status }).toEqual({ status, example: Number(status) });
          examples.set(Number(status), problem.example.type);
        }
      }
    }
    expect(examples.get(400)).toBe('/problems/validation-error');
    expect(examples.get(404)).toBe('/problems/not-found');
    expect(examples.get(409)).toBe('/problems/conflict');
    expect(examples.get(422)).toBe('/problems/unprocessable');
    expect(new Set(examples.values()).size).toBe(examples.size);
  });
});
