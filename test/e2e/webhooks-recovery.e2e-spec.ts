import { eventually } from '../support/eventually';
import { startServiceProcess } from '../support/service-process';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, request, startTestApp, temporaryDataDir } from '../support/test-app';
import { TestClock } from '../support/test-clock';
import { WebhookReceiver } from '../support/webhook-receiver';

const NAMES = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];

/** The names of the agents whose AgentCreated reached the receiver, in the order received. */
const createdNames = (receiver: WebhookReceiver) =>
  receiver.received.filter((d) => d.event.type === 'AgentCreated').map((d) => d.event.data.name as string);

describe('webhook deliveries across a kill -9', () => {
  it('loses no event when the process is killed in the middle of a delivery', async () => {
    const receiver = await WebhookReceiver.start();
    // The third delivery hangs until the process that sent it is gone; every other is answered at once.
    let release!: () => void;
    const killed = new Promise<void>((resolve) => (release = resolve));
    receiver.answer = async (_delivery, index) => {
      if (index === 2) await killed;
      return 200;
    };
    const dataDir = temporaryDataDir();
    const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_RETRY_BASE_MS: '20' };
    const service = await startServiceProcess(dataDir, env);
    let app: TestApp | undefined;
    try {
      const { url } = service;
      const webhook = await request(url, 'POST', '/v1/webhooks', { url: receiver.url, events: ['AgentCreated'] });
      expect(webhook.status).toBe(201);
      for (const name of NAMES) {
        expect((await request(url, 'POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini' })).status).toBe(201);
      }
      await eventually(() => expect(receiver.received).toHaveLength(3), 10_000);
      await service.kill();
      release();

      // Started again on the same data, past the lease of the attempt the killed process held.
      app = await startTestApp({ dataDir, env, clock: new TestClock(new Date(Date.now() + 60_000)) });
      await eventually(() => expect(new Set(createdNames(receiver))).toEqual(new Set(NAMES)), 10_000);
      const names = createdNames(receiver);
      // Before the kill: a1, a2, and a3 cut off. After: in order from the first event not recorded as delivered, so
      // only events sent under the killed process's last claim (a1 to a3 at most) can arrive twice.
      const [before, after] = [names.slice(0, 3), names.slice(3)];
      expect(before).toEqual(['a1', 'a2', 'a3']);
      expect(after).toEqual(NAMES.slice(NAMES.indexOf(after[0])));
      expect(NAMES.indexOf(after[0])).toBeLessThanOrEqual(2);
      expect(receiver.verified(webhook.body.secret)).toHaveLength(names.length);
    } finally {
      await service.kill();
      release();
      await app?.close();
      await receiver.close();
    }
  }, 120_000);
});

const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;

describe('webhook deliveries on two instances of one EventStoreDB (test double)', () => {
  let fixture: StoreFixture;
  let receiver: WebhookReceiver;
  let first: TestApp;
  let second: TestApp;

  beforeEach(async () => {
    fixture = await createTestDouble();
    receiver = await WebhookReceiver.start();
    const env = {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_SECRET_KEY: 'a shared key of more than 32 characters'.replace(/ /g, '-'),
    };
    first = await startTestApp({ fixture, env, clock: new TestClock(new Date()) });
    second = await startTestApp({ fixture, env, clock: new TestClock(new Date()) });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
    await receiver.close();
    await fixture.stop();
  });

  it('delivers each event once per webhook, in order, with either instance writing', async () => {
    const webhook = await first.request('POST', '/v1/webhooks', { url: receiver.url, events: ['AgentCreated'] });
    expect(webhook.status).toBe(201);
    await eventually(async () =>
      expect((await second.request('GET', `/v1/webhooks/${webhook.body.id}`)).status).toBe(200),
    );
    receiver.answer = (_delivery, index) => (index === 1 ? 500 : 200); // one retry, which either may make
    for (const [i, name] of NAMES.entries()) {
      const api = i % 2 ? second : first;
      expect((await api.request('POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini' })).status).toBe(201);
    }
    await eventually(() => expect(receiver.received).toHaveLength(NAMES.length + 1), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(createdNames(receiver)).toEqual(['a1', 'a2', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(receiver.verified(webhook.body.secret)).toHaveLength(NAMES.length + 1);
    for (const api of [first, second]) {
      await eventually(async () => {
        const { attempts } = (await api.request('GET', `/v1/webhooks/${webhook.body.id}/deliveries?limit=100`)).body;
        expect(attempts).toHaveLength(NAMES.length + 1);
      });
    }
  });
});
