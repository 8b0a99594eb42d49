import { join } from 'node:path';
import { EventStore, StoreUnavailableError } from '../../src/event-store/event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { TestClock } from '../support/test-clock';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

type FailingStore = EventStore & { failures: number; lasting: boolean };

/** A store that refuses to record completed idempotent requests `failures` times, or for good once `lasting`. */
function failingCompletions(store: EventStore, clock: TestClock): FailingStore {
  const wrapper = Object.create(store) as FailingStore;
  wrapper.failures = 0;
  wrapper.lasting = false;
  wrapper.append = (stream, events, options) => {
    const completion = events.some((event) => event.type === 'IdempotentRequestCompleted');
    if (completion && (wrapper.lasting || wrapper.failures > 0)) {
      wrapper.failures--;
      // An outage that lasts outlives the time given to record the answer.
      if (wrapper.lasting) clock.advance(11_000);
      return Promise.reject(new StoreUnavailableError('connection lost'));
    }
    return store.append(stream, events, options);
  };
  return wrapper;
}

describe('Idempotency-Key when its answer cannot be recorded at once', () => {
  let api: TestApp;
  let store: FailingStore;
  const createAgent = () =>
    api.request('POST', '/v1/agents', { name: 'writer', model: 'ollama/llama3.2' }, { 'idempotency-key': 'k' });

  beforeEach(async () => {
    const dataDir = temporaryDataDir();
    const clock = new TestClock();
    store = failingCompletions(new SqliteEventStore({ file: join(dataDir, 'events.sqlite') }), clock);
    api = await startTestApp({ dataDir, store, clock, env: { RUN_EXECUTOR_ENABLED: 'false' } });
  });
  afterEach(() => api.close());

  it('retries through a short outage: the answer is sent once recorded, and a repeat gets it back', async () => {
    store.failures = 2;
    const first = await createAgent();
    expect(first.status).toBe(201);
    expect(store.failures).toBe(0);
    const again = await createAgent();
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 503 when the outage lasts, and keeps the key in flight so that a repeat runs nothing twice', async () => {
    store.lasting = true;
    const first = await createAgent();
    expect(first.status).toBe(503);
    expect(first.headers.get('content-type')).toContain('application/problem+json');
    expect(first.body.type).toContain('store-unavailable');
    const again = await createAgent();
    expect(again.status).toBe(409);
    expect((await api.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
  });
});
