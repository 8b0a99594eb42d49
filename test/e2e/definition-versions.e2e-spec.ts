import { storeFixtures } from '../support/store-fixtures';
import { StoreFixture } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** `?version=N` on an agent and a workflow: the definition as it was then, folded from the events. */
describe.each(storeFixtures().slice(0, 2))('definitions at a version (%s)', (storeName, createFixture) => {
  let api: TestApp;
  let fixture: StoreFixture | undefined;
  beforeEach(async () => {
    fixture = storeName === 'sqlite' ? undefined : await createFixture();
    api = await startTestApp({ fixture });
  });
  afterEach(async () => {
    await api.close();
    await fixture?.stop();
  });

  it('an agent at each of its versions; 404 for one it never had; 400 for a bad one, naming version', async () => {
    const created = await api.request('POST', '/v1/agents', {
      name: 'writer',
      model: 'openai/gpt-4o-mini',
      instructions: 'first',
    });
    const id = created.body.id;
    api.clock.advance(1000);
    const second = await api.request('PATCH', `/v1/agents/${id}`, { instructions: 'second', tools: ['current_time'] });
    const third = await api.request('PATCH', `/v1/agents/${id}`, { name: 'editor' });
    const archived = await api.request('DELETE', `/v1/agents/${id}`);
    expect(archived.body.version).toBe(4);

    for (const [version, expected] of [
      [1, created.body],
      [2, second.body],
      [3, third.body],
      [4, archived.body],
    ] as const) {
      const read = await api.request('GET', `/v1/agents/${id}?version=${version}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(expected);
      expect(read.headers.get('etag')).toBe(`"${version}"`);
    }
    const missing = await api.request('GET', `/v1/agents/${id}?version=5`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/no version 5 \(its latest is 4\)/);
    expect((await api.request('GET', `/v1/agents/agent_00000000000000000000000000?version=1`)).status).toBe(404);
    for (const bad of ['0', '-1', '1.5', 'two', '']) {
      const refused = await api.request('GET', `/v1/agents/${id}?version=${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(['version']);
    }
  });

  it('a workflow at each of its versions: its definition and status then, no run-time fields', async () => {
    await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/gpt-4o-mini' });
    const steps = [{ agent: 'researcher', action: 'search' }];
    const created = await api.request('POST', '/v1/workflows', { name: 'digest', steps });
    const id = created.body.id;
    await api.request('POST', `/v1/workflows/${id}/trigger`, {});
    const changed = await api.request('PATCH', `/v1/workflows/${id}`, {
      steps: [...steps, { agent: 'researcher', action: 'again' }],
      maxConcurrentRuns: 2,
      overlap: 'skip',
    });
    await api.request('POST', `/v1/workflows/${id}/trigger`, {});
    expect(changed.body.version).toBe(2);

    const first = await api.request('GET', `/v1/workflows/${id}?version=1`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...created.body, lastRun: null, latestRun: null, nextRunAt: null });
    const now = await api.request('GET', `/v1/workflows/${id}?version=2`);
    expect(now.body).toMatchObject({ steps: changed.body.steps, maxConcurrentRuns: 2, overlap: 'skip', version: 2 });
    expect((await api.request('GET', `/v1/workflows/${id}?version=3`)).status).toBe(404);
    const refused = await api.request('GET', `/v1/workflows/${id}?version=x`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'version', message: 'version must be a positive integer' }]);
  });
});
