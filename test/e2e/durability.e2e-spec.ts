import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SequentialIds } from '../support/sequential-ids';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

// The lists are compared across restarts, so runs stay as recorded: execution is tested in run-execution-recovery.
const env = { RUN_EXECUTOR_ENABLED: 'false' };

describe.each(storeFixtures())('durability and concurrency over HTTP on %s', (store, createFixture) => {
  let fixture: StoreFixture;
  let dataDir: string;
  let ids: SequentialIds;
  let api: TestApp;

  beforeEach(async () => {
    fixture = await createFixture();
    dataDir = temporaryDataDir();
    ids = new SequentialIds();
    api = await startTestApp({ dataDir, ids, fixture, env });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function seed(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      expect(
        (await api.request('POST', '/v1/agents', { name: `agent ${i}`, model: 'openai/gpt-4o-mini' })).status,
      ).toBe(201);
    }
    const workflow = await api.request('POST', '/v1/workflows', {
      name: 'wf',
      steps: [{ agent: 'agent 0', action: 'go' }],
    });
    api.clock.advance(5000);
    expect((await api.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: { n: 1 } })).status).toBe(
      202,
    );
  }

  async function snapshot() {
    const agents = (await api.request('GET', '/v1/agents')).body;
    const workflows = (await api.request('GET', '/v1/workflows')).body;
    const details = await Promise.all(
      workflows.workflows.map((w: { id: string }) => api.request('GET', `/v1/workflows/${w.id}/runs`)),
    );
    return { agents, workflows, runs: details.map((d) => d.body) };
  }

  async function restart(): Promise<void> {
    await api.close();
    api = await startTestApp({ dataDir, ids, fixture, env });
  }

  it('keeps everything across a restart, and still refuses a taken name', async () => {
    await seed();
    const before = await snapshot();
    await restart();
    expect(await snapshot()).toEqual(before);
    expect((await api.request('POST', '/v1/agents', { name: 'agent 1', model: 'ollama/llama3' })).status).toBe(409);
  });

  it('rebuilds the same lists from the log when the read models are deleted', async () => {
    await seed();
    const before = await snapshot();
    await api.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `read-models.sqlite${suffix}`), { force: true });
    api = await startTestApp({ dataDir, ids, fixture, env });
    expect(await snapshot()).toEqual(before);
  });

  it('creates every agent of many concurrent requests, each listed once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api.request('POST', '/v1/agents', { name: `parallel ${i}`, model: 'openai/gpt-4o-mini' }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(60).fill(201));
    const listed = (await api.request('GET', '/v1/agents?limit=200')).body.agents.map((a: { id: string }) => a.id);
    expect(listed.sort()).toEqual(responses.map((r) => r.body.id).sort());
  });

  it('lets exactly one of many concurrent creates with the same name win', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.request('POST', '/v1/agents', { name: 'contested', model: 'openai/gpt-4o-mini' }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(19);
    expect((await api.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
  });

  it('keeps every run of many concurrent triggers of one workflow', async () => {
    await api.request('POST', '/v1/agents', { name: 'a', model: 'openai/gpt-4o-mini' });
    const workflow = (
      await api.request('POST', '/v1/workflows', { name: 'busy', steps: [{ agent: 'a', action: 'go' }] })
    ).body;
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: { i } }),
      ),
    );
    expect(runs.map((r) => r.status)).toEqual(Array(40).fill(202));
    const listed = (await api.request('GET', `/v1/workflows/${workflow.id}/runs?limit=200`)).body.runs;
    expect(listed.map((r: { input: { i: number } }) => r.input.i).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i),
    );
    await restart();
    expect((await api.request('GET', `/v1/workflows/${workflow.id}/runs?limit=200`)).body.runs).toHaveLength(40);
  });

  it('reports health with the store it uses', async () => {
    const health = await api.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', storeReachable: true, readModels: 'following' });
    expect(health.body.store).toMatch(store === 'sqlite' ? /^sqlite/ : /^eventstoredb/);
  });
});
