import { EVENT_STORE, EventStore } from '../../src/event-store/event-store';
import { EventStreamClient } from '../support/event-stream-client';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp } from '../support/test-app';

// Runs stay queued, so the log holds only what the tests write, and a run's stream stays open.
const env = { RUN_EXECUTOR_ENABLED: 'false', SCHEDULER_ENABLED: 'false' };

describe('the shared event feed of GET /v1/events', () => {
  let api: TestApp;
  const clients: EventStreamClient[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await api.close();
  });

  async function open(query = ''): Promise<EventStreamClient> {
    const client = await EventStreamClient.open(`${api.url}/v1/events${query}`);
    clients.push(client);
    return client;
  }

  async function createAgent(name: string): Promise<string> {
    const created = await api.request('POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini' });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('subscribes to the store once for all subscribers, and hands them commits without reading them back', async () => {
    api = await startTestApp({ env });
    const store = api.app.get<EventStore>(EVENT_STORE);
    await createAgent('before');
    const subscribe = jest.spyOn(store, 'subscribe');
    const all = await Promise.all(Array.from({ length: 10 }, () => open()));
    const created = await Promise.all(Array.from({ length: 10 }, () => open('?types=AgentCreated')));
    for (const client of all) await client.next(2);
    for (const client of created) await client.next(1);
    // The feed's one subscription (the projections and process managers subscribed before the spy).
    expect(subscribe.mock.calls.length).toBeLessThanOrEqual(1);

    const pages = jest.spyOn(store, 'readLogPage');
    const reads = jest.spyOn(store, 'readAll');
    const agentId = await createAgent('live');
    for (const client of all) {
      const messages = await client.next(4);
      expect(messages.map((message) => message.event)).toEqual([
        'AgentNameClaimed',
        'AgentCreated',
        'AgentNameClaimed',
        'AgentCreated',
      ]);
    }
    for (const client of created) {
      const messages = await client.next(2);
      expect(messages[1].data).toMatchObject({ type: 'AgentCreated', stream: `agent-${agentId}` });
    }
    expect(pages).not.toHaveBeenCalled();
    expect(reads).not.toHaveBeenCalled();
  });

  it('keeps live subscribers live while one that stopped reading falls behind, then catches it up in order', async () => {
    api = await startTestApp({ env });
    const stuck = await open();
    const reading = await open();
    stuck.pause();
    // 40 agents of 90 kB each: far more than a socket buffers.
    const instructions = 'x'.repeat(90_000);
    for (let i = 0; i < 40; i++) {
      const created = await api.request('POST', '/v1/agents', {
        name: `agent-${i}`,
        model: 'openai/gpt-4o-mini',
        instructions,
      });
      expect(created.status).toBe(201);
    }
    await reading.next(80);
    expect(stuck.messages.length).toBeLessThan(40);
    stuck.resume();
    const messages = await stuck.next(80);
    const positions = messages.map((message) => BigInt(message.id!));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1])).toBe(true);
    expect(messages.map((message) => message.data)).toEqual(reading.messages.slice(0, 80).map((m) => m.data));
  });

  it(`bounds a client's open streams by SSE_MAX_STREAMS_PER_KEY, run streams included: a 429 past it`, async () => {
    api = await startTestApp({ env: { ...env, SSE_MAX_STREAMS_PER_KEY: '2' } });
    const agentId = await createAgent('runner');
    const run = await api.request('POST', `/v1/agents/${agentId}/run`, { task: 'hello' });
    expect(run.status).toBe(202);
    const runStream = await EventStreamClient.open(`${api.url}/v1/agents/${agentId}/runs/${run.body.id}/stream`);
    clients.push(runStream);
    expect(runStream.status).toBe(200);
    const first = await open();
    expect(first.status).toBe(200);

    const refused = await api.request('GET', '/v1/events', undefined, { accept: 'text/event-stream' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: '/problems/too-many-streams', status: 429 });
    const refusedRun = await api.request('GET', `/v1/agents/${agentId}/runs/${run.body.id}/stream`, undefined, {
      accept: 'text/event-stream',
    });
    expect(refusedRun.status).toBe(429);
    // JSON pages are no streams.
    expect((await api.request('GET', '/v1/events')).status).toBe(200);

    first.close();
    await eventually(async () => {
      const again = await EventStreamClient.open(`${api.url}/v1/events`);
      clients.push(again);
      expect(again.status).toBe(200);
    });
  });
});
