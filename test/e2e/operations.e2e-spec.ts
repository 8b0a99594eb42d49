import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { loggingOptions } from '../../src/operations/logging';

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

  it('returns the caller request id, or a new one', async () => {
    const given = await api.request('GET', '/v1/agents', undefined, { 'x-request-id': 'trace-42' });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const made = await api.request('GET', '/v1/agents', undefined, { 'x-request-id': 'not a good id' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await api.request('GET', '/v1/nowhere');
    expect(problem.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
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
