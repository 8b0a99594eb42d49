import { AsyncLocalStorage } from 'node:async_hooks';
import { startScriptedOpenAIServer } from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import type Database from 'better-sqlite3';
import { loggingOptions } from '../../src/operations/logging';
import { READ_DATABASE } from '../../src/read-models/read-database';

describe('operating the service', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ env: { RUN_EXECUTOR_ENABLED: 'false' } });
  });
  afterAll(() => api.close());

  it('answers liveness and readiness probes', async () => {
    expect(await api.request('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await api.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details).toMatchObject({
      store: { status: 'up' },
      readModels: { status: 'up', state: 'following' },
    });
  });

  it('serves Prometheus metrics: requests by route and status, events, runs by status, lags', async () => {
    const agent = (await api.request('POST', '/v1/agents', { name: 'm', model: 'ollama/llama3.2' })).body;
    await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'x' });
    await api.request('GET', `/v1/agents/${agent.id}`);
    const response = await fetch(`${api.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/v1\/agents\/:agentId",status="200"\} 1/,
    );
    expect(text).toMatch(/events_total\{type="AgentCreated"\} 1/);
    expect(text).toMatch(/agent_runs\{status="queued"\} 1/);
    expect(text).toContain('projection_lag_seconds_bucket');
    expect(text).toContain('schedule_lag_seconds_bucket');
    expect(text).toContain('read_model_position');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('keeps runs by status as events are applied, not by a query of the read models on each scrape', async () => {
    const scrape = async () => (await fetch(`${api.url}/metrics`)).text();
    const count = (text: string, kind: string, status: string) =>
      Number(new RegExp(`^${kind}\\{status="${status}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await scrape();
    // A row no event made: a count kept from the events never sees it.
    const db = api.app.get<Database.Database>(READ_DATABASE);
    db.prepare(
      `INSERT INTO agent_runs (id, agent_id, status, doc) VALUES ('agentrun_x', 'agent_x', 'failed', '{}')`,
    ).run();
    const agent = (await api.request('POST', '/v1/agents', { name: 'counted', model: 'ollama/llama3.2' })).body;
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push((await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'x' })).body);
    const cancelled = await api.request('POST', `/v1/agents/${agent.id}/runs/${runs[0].id}/cancel`);
    expect(cancelled.status).toBeLessThan(300);
    const after = await scrape();
    expect(count(after, 'agent_runs', 'queued')).toBe(count(before, 'agent_runs', 'queued') + 2);
    expect(count(after, 'agent_runs', 'cancelled')).toBe(count(before, 'agent_runs', 'cancelled') + 1);
    expect(count(after, 'agent_runs', 'failed')).toBe(count(before, 'agent_runs', 'failed'));
  });

  it('returns the caller request id, or a new one', async () => {
    const given = await api.request('GET', '/v1/agents', undefined, { 'x-request-id': 'trace-42' });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const made = await api.request('GET', '/v1/agents', undefined, { 'x-request-id': 'not a good id' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await api.request('GET', '/v1/nowhere');
    expect(problem.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('binds no request to an AsyncLocalStorage (it would turn promise hooks on for the whole process)', async () => {
    // A service that executes runs, on a scripted model: the run's model call is watched too.
    const model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'Done.' }));
    const running = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      const agent = (
        await running.request('POST', '/v1/agents', { name: 'als', model: 'openai-compatible/test-model' })
      ).body;
      const ran = await running.request('POST', `/v1/agents/${agent.id}/run`, { task: 'x' }, { prefer: 'wait=10' });
      expect(ran.body).toMatchObject({ status: 'succeeded', output: 'Done.' });
      expect((await running.request('GET', '/v1/nowhere')).status).toBe(404);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
      await running.close();
      await model.close();
    }
  });

  it('logs requests without their headers, so API keys are never logged', () => {
    const { serializers } = loggingOptions('log').pinoHttp as {
      serializers: Record<string, (value: unknown) => unknown>;
    };
    const logged = serializers.req({
      id: 'r1',
      method: 'GET',
      url: '/v1/agents',
      headers: { authorization: 'Bearer k' },
    });
    expect(logged).toEqual({ id: 'r1', method: 'GET', url: '/v1/agents' });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('needs the token as a bearer token: 401 without it or with another', async () => {
    const token = 'metrics-token-0123456789';
    const api = await startTestApp({ env: { RUN_EXECUTOR_ENABLED: 'false', METRICS_TOKEN: token } });
    try {
      const without = await api.request('GET', '/metrics');
      expect(without.status).toBe(401);
      expect(without.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const wrong = await api.request('GET', '/metrics', undefined, { authorization: 'Bearer not-the-token-at-all' });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('read_model_position');
    } finally {
      await api.close();
    }
  });
});

describe('draining on SIGTERM', () => {
  it('lets a request in flight finish before the store stops, and loses nothing it acknowledged', async () => {
    const dataDir = temporaryDataDir();
    const env = { RUN_EXECUTOR_ENABLED: 'false' };
    let api = await startTestApp({ dataDir, env });
    const agent = (await api.request('POST', '/v1/agents', { name: 'drain', model: 'ollama/llama3.2' })).body;
    const inFlight = api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'x' }, { prefer: 'wait=1' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await api.close();
    const answered = await inFlight;
    expect(answered.status).toBe(202);
    api = await startTestApp({ dataDir, env });
    try {
      expect((await api.request('GET', `/v1/agents/${agent.id}/runs/${answered.body.id}`)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});

const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

describe('readiness while EventStoreDB is away (test double)', () => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeAll(async () => {
    fixture = await createTestDouble();
    api = await startTestApp({ fixture, deadlineMs: 300 });
  });
  afterAll(async () => {
    await api.close();
    await fixture.stop();
  });

  it('says not ready, as problem+json with the failing checks, until the store returns', async () => {
    await fixture.double!.stop();
    const down = await api.request('GET', '/health/ready');
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toContain('application/problem+json');
    expect(down.headers.get('retry-after')).toBe('1');
    expect(down.body).toMatchObject({ type: '/problems/not-ready', details: { store: { status: 'down' } } });
    expect((await api.request('GET', '/health/live')).status).toBe(200);
  });
});
