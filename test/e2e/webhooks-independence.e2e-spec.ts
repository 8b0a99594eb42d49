import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENT_STORE, EventStore } from '../../src/event-store/event-store';
import { eventually } from '../support/eventually';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';
import { TestClock } from '../support/test-clock';
import { WebhookReceiver } from '../support/webhook-receiver';

/** More than the 10,000 events the former single dispatcher held in its queues before it stopped reading the log. */
const BACKLOG = 10_500;
const ENV = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', RUN_EXECUTOR_ENABLED: 'false' };

/** Each webhook is a consumer of the log of its own: one that fails holds back no other. */
describe('webhooks, each with its own consumer of the log', () => {
  let failing: WebhookReceiver;
  let healthy: WebhookReceiver;
  let app: TestApp;
  const dataDir = temporaryDataDir();

  beforeAll(async () => {
    failing = await WebhookReceiver.start();
    failing.answer = () => 500;
    healthy = await WebhookReceiver.start();
  });
  beforeEach(async () => {
    app = await startTestApp({ dataDir, clock: new TestClock(new Date()), env: ENV });
  });
  let clockBeforeRestart: Date | undefined;
  afterEach(async () => {
    clockBeforeRestart = app.clock.now();
    await app.close();
  });
  afterAll(async () => {
    await failing.close();
    await healthy.close();
  });

  const createAgent = async (name: string) =>
    expect((await app.request('POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini' })).status).toBe(201);
  const namesAt = (receiver: WebhookReceiver) => receiver.received.map((d) => d.event.data.name);

  it('delivers to a healthy webhook behind a failing one with more than 10,000 events waiting', async () => {
    const created = await Promise.all([
      app.request('POST', '/v1/webhooks', { url: failing.url, events: ['BacklogFilled'] }),
      app.request('POST', '/v1/webhooks', { url: healthy.url, events: ['AgentCreated'] }),
    ]);
    expect(created.map((c) => c.status)).toEqual([201, 201]);

    // The failing webhook's backlog, written straight to the store (quicker than over HTTP).
    const store = app.app.get<EventStore>(EVENT_STORE);
    for (let written = 0; written < BACKLOG; written += 500) {
      const events = Array.from({ length: 500 }, (_, i) => ({
        id: randomUUID(),
        type: 'BacklogFilled',
        data: { n: written + i },
        metadata: { schemaVersion: 1 },
      }));
      await store.append(`backlog-${written}`, events, { expected: 'no_stream' });
    }
    await eventually(() => expect(failing.received.length).toBeGreaterThanOrEqual(3));
    await createAgent('after-the-backlog');
    await eventually(() => expect(namesAt(healthy)).toEqual(['after-the-backlog']), 15_000);
    expect(healthy.verified(created[1].body.secret)).toHaveLength(1);
    // Recorded before the restart: a send cut off by the stop is unrecorded, and rightly sent again after it.
    await eventually(async () => {
      const { attempts } = (await app.request('GET', `/v1/webhooks/${created[1].body.id}/deliveries`)).body;
      expect(attempts.map((attempt: { status: string }) => attempt.status)).toEqual(['succeeded']);
    });
    // The failing one is still at its first event, retrying it.
    expect(new Set(failing.received.map((d) => d.event.data.n))).toEqual(new Set([0]));
  }, 60_000);

  it('resumes each webhook from its own position after a restart', async () => {
    // The same clock time as before the restart: the instance (of the same data folder) takes up its own retry at
    // once, without waiting for it to be a lease overdue as another instance would.
    app.clock.set(clockBeforeRestart!);
    const before = failing.received.length;
    await createAgent('after-the-restart');
    await eventually(() => expect(namesAt(healthy)).toEqual(['after-the-backlog', 'after-the-restart']), 15_000);
    // Nothing sent twice to the healthy one; the failing one goes on with the same event.
    await eventually(() => expect(failing.received.length).toBeGreaterThan(before), 15_000);
    expect(new Set(failing.received.map((d) => d.event.data.n))).toEqual(new Set([0]));
  }, 30_000);
});

describe('webhooks in a data folder of the single dispatcher', () => {
  it('rebuilds the read model of the former shape, and sends nothing twice', async () => {
    const receiver = await WebhookReceiver.start();
    const dataDir = temporaryDataDir();
    let app = await startTestApp({ dataDir, env: ENV });
    try {
      const created = await app.request('POST', '/v1/webhooks', { url: receiver.url, events: ['AgentCreated'] });
      await app.request('POST', '/v1/agents', { name: 'before', model: 'openai/gpt-4o-mini' });
      await eventually(async () => {
        const { attempts } = (await app.request('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body;
        expect(attempts).toHaveLength(1);
      });
      await app.close();

      // The former shape: no start position, and one checkpoint for every webhook.
      const db = new Database(join(dataDir, 'read-models.sqlite'));
      db.exec('ALTER TABLE webhooks DROP COLUMN started_position');
      db.exec(`UPDATE checkpoints SET name = 'webhook-deliveries' WHERE name LIKE 'webhook-deliveries-%'`);
      db.close();

      app = await startTestApp({ dataDir, env: ENV });
      expect((await app.request('GET', `/v1/webhooks/${created.body.id}`)).body.enabled).toBe(true);
      expect((await app.request('GET', `/v1/webhooks/${created.body.id}/deliveries`)).body.attempts).toHaveLength(1);
      await app.request('POST', '/v1/agents', { name: 'after', model: 'openai/gpt-4o-mini' });
      await eventually(() => expect(receiver.received.map((d) => d.event.data.name)).toEqual(['before', 'after']));
    } finally {
      await app.close();
      await receiver.close();
    }
  });
});
