import { EventStreamClient } from '../support/event-stream-client';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

const env = { RUN_EXECUTOR_ENABLED: 'false' };

describe.each(storeFixtures())('Idempotency-Key on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let dataDir: string;
  let api: TestApp;

  beforeEach(async () => {
    fixture = await createFixture();
    dataDir = temporaryDataDir();
    api = await startTestApp({ fixture, dataDir, env });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  const createAgent = (key: string, name = 'writer') =>
    api.request('POST', '/v1/agents', { name, model: 'ollama/llama3.2' }, { 'idempotency-key': key });

  it('answers a repeat with the first response, and writes nothing', async () => {
    const first = await createAgent('k-1');
    expect(first.status).toBe(201);
    const again = await createAgent('k-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
  });

  it('does not make a second run when a run request is retried, even after a restart', async () => {
    const agent = (await createAgent('k-agent')).body;
    const run = () =>
      api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'Summarise' }, { 'idempotency-key': 'k-run' });
    const first = await run();
    expect(first.status).toBe(202);
    await api.close();
    api = await startTestApp({ fixture, dataDir, env });
    const again = await run();
    expect(again).toMatchObject({ status: 202, body: first.body });
    expect((await api.request('GET', `/v1/agents/${agent.id}/runs`)).body.runs).toHaveLength(1);
  });

  it('never serves the recorded response body on the event log, streamed or paged, only its status', async () => {
    const first = await api.request(
      'POST',
      '/v1/agents',
      { name: 'secretive', model: 'ollama/llama3.2', instructions: 'the recorded body' },
      { 'idempotency-key': 'k-log' },
    );
    expect(first.status).toBe(201);
    const page = await api.request('GET', '/v1/events?types=IdempotentRequestCompleted');
    expect(page.body.events).toHaveLength(1);
    const [completed] = page.body.events;
    expect(completed.data.response).toEqual({ status: 201, headers: expect.any(Object) });
    expect(JSON.stringify(page.body)).not.toContain('the recorded body');
    const streamed = await EventStreamClient.open(`${api.url}/v1/events?types=IdempotentRequestCompleted`);
    const [message] = await streamed.next(1);
    streamed.close();
    expect(message.data).toEqual(completed);
    // The repeat still gets the whole response.
    expect(
      (
        await api.request(
          'POST',
          '/v1/agents',
          { name: 'secretive', model: 'ollama/llama3.2', instructions: 'the recorded body' },
          { 'idempotency-key': 'k-log' },
        )
      ).body,
    ).toEqual(first.body);
  });

  it('answers a repeated PATCH with the first response, its ETag included, and changes nothing more', async () => {
    const agent = (await createAgent('k-patch-agent')).body;
    const patch = () =>
      api.request('PATCH', `/v1/agents/${agent.id}`, { instructions: 'Be brief' }, { 'idempotency-key': 'k-patch' });
    const first = await patch();
    expect(first.status).toBe(200);
    const again = await patch();
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const history = await api.request('GET', `/v1/agents/${agent.id}/events`);
    expect(history.body.events.map((event: { type: string }) => event.type)).toEqual(['AgentCreated', 'AgentUpdated']);
  });

  it('refuses the same key with a different body with a 422', async () => {
    await createAgent('k-2', 'one');
    const other = await createAgent('k-2', 'two');
    expect(other.status).toBe(422);
    expect(other.headers.get('content-type')).toContain('application/problem+json');
    expect(other.body.detail).toContain('different request');
    expect((await api.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
  });

  it('answers 409 to a repeat while the first is still in flight', async () => {
    const agent = (await createAgent('k-agent')).body;
    const waiting = api.request(
      'POST',
      `/v1/agents/${agent.id}/run`,
      { task: 'x' },
      { 'idempotency-key': 'k-slow', prefer: 'wait=1' },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const meanwhile = await api.request(
      'POST',
      `/v1/agents/${agent.id}/run`,
      { task: 'x' },
      { 'idempotency-key': 'k-slow', prefer: 'wait=1' },
    );
    expect(meanwhile.status).toBe(409);
    expect((await waiting).status).toBe(202);
  });

  it('runs a failed request again on retry, since it changed nothing', async () => {
    const bad = await api.request('POST', '/v1/agents', { name: 'x' }, { 'idempotency-key': 'k-3' });
    expect(bad.status).toBe(400);
    const fixed = await api.request('POST', '/v1/agents', { name: 'x' }, { 'idempotency-key': 'k-3' });
    expect(fixed.status).toBe(400);
    const bad2 = await api.request(
      'POST',
      '/v1/agents',
      { name: 'x', model: 'ollama/m' },
      { 'idempotency-key': 'k-4' },
    );
    expect(bad2.status).toBe(201);
  });

  it('refuses a key that is too long', async () => {
    const long = await createAgent('k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.errors[0].path).toBe('Idempotency-Key');
  });
});

const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

describe('Idempotency-Key across two instances on one EventStoreDB (test double)', () => {
  it('answers a repeat sent to the other instance with the first response, writing nothing', async () => {
    const fixture = await createTestDouble();
    const [first, second] = [await startTestApp({ fixture, env }), await startTestApp({ fixture, env })];
    try {
      const body = { name: 'shared', model: 'ollama/llama3.2' };
      const created = await first.request('POST', '/v1/agents', body, { 'idempotency-key': 'k-shared' });
      expect(created.status).toBe(201);
      const again = await second.request('POST', '/v1/agents', body, { 'idempotency-key': 'k-shared' });
      expect(again).toMatchObject({ status: 201, body: created.body });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const other = await second.request(
        'POST',
        '/v1/agents',
        { ...body, name: 'x' },
        { 'idempotency-key': 'k-shared' },
      );
      expect(other.status).toBe(422);
      expect((await second.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await fixture.stop();
    }
  });
});
