import { eventually } from '../support/eventually';
import { Logger } from '@nestjs/common';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

describe('several instances on one EventStoreDB (test double)', () => {
  let fixture: StoreFixture;
  let first: TestApp;
  let second: TestApp;

  beforeEach(async () => {
    fixture = await createTestDouble();
    first = await startTestApp({ fixture });
    second = await startTestApp({ fixture });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
    await fixture.stop();
  });

  it('shows a write through one instance in the other instance lists', async () => {
    const created = await first.request('POST', '/v1/agents', { name: 'shared', model: 'openai/gpt-4o-mini' });
    expect(created.status).toBe(201);
    await eventually(async () => {
      expect((await second.request('GET', `/v1/agents/${created.body.id}`)).body).toEqual(created.body);
    });
  });

  it('lets one of two instances claim a contested agent name', async () => {
    const responses = await Promise.all(
      [first, second, first, second].map((api) =>
        api.request('POST', '/v1/agents', { name: 'contested', model: 'ollama/llama3' }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('keeps every run when both instances trigger one workflow at once (no lost update)', async () => {
    await first.request('POST', '/v1/agents', { name: 'worker', model: 'openai/gpt-4o-mini' });
    const workflow = (
      await first.request('POST', '/v1/workflows', { name: 'busy', steps: [{ agent: 'worker', action: 'go' }] })
    ).body;
    await eventually(async () =>
      expect((await second.request('GET', `/v1/workflows/${workflow.id}`)).status).toBe(200),
    );

    const triggers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? first : second).request('POST', `/v1/workflows/${workflow.id}/trigger`, { input: { i } }),
      ),
    );
    expect(triggers.map((t) => t.status)).toEqual(Array(30).fill(202));
    for (const api of [first, second]) {
      await eventually(async () => {
        const runs = (await api.request('GET', `/v1/workflows/${workflow.id}/runs?limit=200`)).body.runs;
        expect(runs.map((r: { input: { i: number } }) => r.input.i).sort((a: number, b: number) => a - b)).toEqual(
          Array.from({ length: 30 }, (_, i) => i),
        );
      });
    }
    const triggered = fixture
      .double!.streamEvents(`workflow-${workflow.id}`)
      .filter((e) => e.type === 'WorkflowTriggered');
    expect(triggered).toHaveLength(30);
  });
});

describe('EventStoreDB (test double) going away and coming back', () => {
  let fixture: StoreFixture;
  let api: TestApp;

  beforeEach(async () => {
    fixture = await createTestDouble();
    api = await startTestApp({ fixture, deadlineMs: 300 });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  it('answers 503 quickly while the store is down, says so on /health, and recovers by itself', async () => {
    expect((await api.request('POST', '/v1/agents', { name: 'before', model: 'ollama/llama3' })).status).toBe(201);
    await fixture.double!.stop();

    const started = Date.now();
    const refused = await api.request('POST', '/v1/agents', { name: 'during', model: 'ollama/llama3' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({ type: '/problems/store-unavailable', status: 503 });

    const health = await api.request('GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', storeReachable: false });

    await fixture.double!.start();
    await eventually(async () => expect((await api.request('GET', '/health')).status).toBe(200), 10_000);
    const after = await api.request('POST', '/v1/agents', { name: 'after', model: 'ollama/llama3' });
    expect(after.status).toBe(201);
    const names = (await api.request('GET', '/v1/agents')).body.agents.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['before', 'after']));
    expect(names).not.toContain('during');
  }, 20_000);

  it('recovers at once when the store returns: a write wakes the subscription, readiness says behind meanwhile, drop and resume logged once each', async () => {
    // A first backoff of a second, so that without the wake-up the write would wait out seconds of it.
    await api.close();
    api = await startTestApp({ fixture, deadlineMs: 300, retryInitialMs: 1000 });
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const logs = jest.spyOn(Logger.prototype, 'log');
    try {
      expect((await api.request('POST', '/v1/agents', { name: 'before', model: 'ollama/llama3.2' })).status).toBe(201);
      expect((await api.request('GET', '/health')).body).toMatchObject({ ready: true, readModels: 'following' });
      await fixture.double!.stop();
      // One failed retry later, the backoff is two seconds.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await api.request('GET', '/health')).body).toMatchObject({ ready: false, readModels: 'behind' });

      await fixture.double!.start();
      const started = Date.now();
      const after = await api.request('POST', '/v1/agents', { name: 'after', model: 'ollama/llama3.2' });
      expect(after.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await api.request('GET', `/v1/agents/${after.body.id}`)).status).toBe(200);
      await eventually(async () =>
        expect((await api.request('GET', '/health')).body).toMatchObject({ ready: true, readModels: 'following' }),
      );

      const messages = (spy: jest.SpyInstance) => spy.mock.calls.map(([message]) => String(message));
      expect(messages(warnings).filter((m) => /lost the event store's subscription/.test(m))).toHaveLength(1);
      expect(messages(logs).filter((m) => /resumed the event store's subscription/.test(m))).toHaveLength(1);
    } finally {
      warnings.mockRestore();
      logs.mockRestore();
    }
  }, 20_000);
});
