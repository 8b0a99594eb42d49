import { EventStreamClient } from '../support/event-stream-client';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';
import { TestClock } from '../support/test-clock';
import { WebhookReceiver } from '../support/webhook-receiver';

const HOUR = 3_600_000;

/** Webhooks: deliveries to a real receiver on a loopback port, checked as a `standardwebhooks` receiver checks them. */
describe.each(storeFixtures())('webhooks on %s', (_name, createFixture) => {
  let receiver: WebhookReceiver;
  let app: TestApp;
  let fixture: StoreFixture;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    fixture = await createFixture();
    // The clock is near the real time: receivers refuse signatures whose timestamp is more than 5 minutes off.
    app = await startTestApp({
      fixture,
      clock: new TestClock(new Date()),
      env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', RUN_EXECUTOR_ENABLED: 'false' },
    });
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
    await fixture.stop();
  });

  async function createWebhook(events: string[] = ['AgentCreated']) {
    const created = await app.request('POST', '/v1/webhooks', { url: receiver.url, events, description: 'test' });
    expect(created.status).toBe(201);
    return created.body as { id: string; secret: string };
  }

  const createAgent = async (name: string) => {
    const created = await app.request('POST', '/v1/agents', { name, model: 'openai/gpt-4o-mini' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  const attempts = async (webhookId: string) =>
    (await app.request('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.attempts as Array<Record<string, any>>;

  it('creates, lists, reads, changes and deletes a webhook; the secret is shown once and never logged', async () => {
    const created = await app.request('POST', '/v1/webhooks', { url: receiver.url, events: ['AgentRun*'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/webhooks/${created.body.id}`);
    const { secret, ...webhook } = created.body;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^whk_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: receiver.url,
      events: ['AgentRun*'],
      description: null,
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await app.request('GET', `/v1/webhooks/${webhook.id}`)).body).toEqual(webhook);
    expect((await app.request('GET', '/v1/webhooks')).body).toEqual({ webhooks: [webhook], nextCursor: null });

    const patched = await app.request('PATCH', `/v1/webhooks/${webhook.id}`, {
      events: ['AgentCreated'],
      enabled: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['AgentCreated'], enabled: false });

    const rotated = await app.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);

    const log = JSON.stringify((await app.request('GET', '/v1/events?limit=100')).body);
    expect(log).toContain('WebhookCreated');
    expect(log).not.toContain(secret.slice('whsec_'.length, 30));
    expect(log).not.toContain(rotated.body.secret.slice('whsec_'.length, 30));
    expect(log).not.toContain('encryptedSecret');

    expect((await app.request('DELETE', `/v1/webhooks/${webhook.id}`)).status).toBe(204);
    expectProblem(await app.request('GET', `/v1/webhooks/${webhook.id}`), 404);
    expect((await app.request('GET', '/v1/webhooks')).body.webhooks).toEqual([]);
  });

  it('delivers matching events in log order, signed as Standard Webhooks, the body as /v1/events serves it', async () => {
    const { id, secret } = await createWebhook(['Agent*']);
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) await createAgent(name);
    await eventually(() => expect(receiver.received).toHaveLength(10)); // AgentNameClaimed and AgentCreated each
    expect(receiver.verified(secret)).toHaveLength(10);
    expect(receiver.verified('whsec_' + Buffer.alloc(32, 1).toString('base64'))).toHaveLength(0);
    const positions = receiver.received.map((d) => BigInt(d.event.position));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    expect(receiver.received.filter((d) => d.event.type === 'AgentCreated').map((d) => d.event.data.name)).toEqual(
      names,
    );

    const served = (await app.request('GET', '/v1/events?types=AgentCreated&limit=10')).body.events;
    const sent = receiver.received.filter((d) => d.event.type === 'AgentCreated');
    expect(sent.map((d) => JSON.parse(d.body))).toEqual(served);
    expect(sent.map((d) => d.headers['webhook-id'])).toEqual(served.map((e: any) => `msg_${e.id.replace(/-/g, '')}`));

    await eventually(async () => expect(await attempts(id)).toHaveLength(10));
    expect((await attempts(id))[0]).toMatchObject({
      status: 'succeeded',
      statusCode: 200,
      attempt: 1,
      redelivery: false,
    });
  });

  it('retries a receiver that fails three times, then delivers, and keeps the order', async () => {
    const { id, secret } = await createWebhook();
    receiver.answer = (_delivery, index) => (index < 3 ? 500 : 200);
    await createAgent('first');
    await createAgent('second');
    await eventually(() => expect(receiver.received).toHaveLength(5));
    expect(receiver.received.map((d) => d.event.data.name)).toEqual(['first', 'first', 'first', 'first', 'second']);
    expect(new Set(receiver.received.slice(0, 4).map((d) => d.headers['webhook-id'])).size).toBe(1);
    expect(receiver.verified(secret)).toHaveLength(5);
    await eventually(async () => expect(await attempts(id)).toHaveLength(5));
    const listed = (await attempts(id)).reverse();
    expect(listed.map((a) => [a.attempt, a.status, a.statusCode])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'succeeded', 200],
      [1, 'succeeded', 200],
    ]);
    expect(listed[0].nextAttemptAt).toEqual(expect.any(String));
    expect(listed[0].error).toBe('Answered 500');
    expect(listed[3].nextAttemptAt).toBeNull();
  });

  it('disables a webhook whose deliveries failed for 24 hours, with an event saying so', async () => {
    const { id } = await createWebhook();
    receiver.answer = () => 503;
    await createAgent('doomed');
    await eventually(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2));
    expect((await app.request('GET', `/v1/webhooks/${id}`)).body.enabled).toBe(true);
    app.clock.advance(24 * HOUR);
    await eventually(async () => expect((await app.request('GET', `/v1/webhooks/${id}`)).body.enabled).toBe(false));
    const webhook = (await app.request('GET', `/v1/webhooks/${id}`)).body;
    expect(webhook.disabledReason).toMatch(/failed for 24 hours/);
    const disabled = (await app.request('GET', '/v1/events?types=WebhookDisabled')).body.events;
    expect(disabled).toEqual([expect.objectContaining({ type: 'WebhookDisabled', stream: `webhook-${id}` })]);
    const sent = receiver.received.length;
    await createAgent('unsent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(sent);

    receiver.answer = () => 200;
    expect((await app.request('PATCH', `/v1/webhooks/${id}`, { enabled: true })).body).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    await createAgent('after');
    await eventually(() => expect(receiver.received.at(-1)?.event.data.name).toBe('after'));
    // Re-enabled, it goes on from then: what was written while it was disabled is not sent.
    expect(receiver.received.map((d) => d.event.data.name)).not.toContain('unsent');
  });

  it('redelivers a delivery on request, with the same webhook-id', async () => {
    const { id, secret } = await createWebhook();
    await createAgent('again');
    await eventually(async () => expect(await attempts(id)).toHaveLength(1));
    const [first] = await attempts(id);
    const redelivered = await app.request('POST', `/v1/webhooks/${id}/deliveries/${first.deliveryId}/redeliver`);
    expect(redelivered.status).toBe(200);
    expect(redelivered.body).toMatchObject({
      deliveryId: first.deliveryId,
      status: 'succeeded',
      attempt: 2,
      redelivery: true,
    });
    expect(receiver.received.map((d) => d.headers['webhook-id'])).toEqual([first.deliveryId, first.deliveryId]);
    expect(receiver.verified(secret)).toHaveLength(2);
    expect(await attempts(id)).toHaveLength(2);

    const unknown = `msg_${'0'.repeat(32)}`;
    expectProblem(await app.request('POST', `/v1/webhooks/${id}/deliveries/${unknown}/redeliver`), 404);
    expectProblem(await app.request('POST', `/v1/webhooks/${id}/deliveries/nope/redeliver`), 400);
  });

  it('signs with the new secret once it is rotated', async () => {
    const { id, secret } = await createWebhook();
    const rotated = (await app.request('POST', `/v1/webhooks/${id}/rotate-secret`)).body.secret as string;
    await createAgent('rotated');
    await eventually(() => expect(receiver.received).toHaveLength(1));
    expect(receiver.verified(rotated)).toHaveLength(1);
    expect(receiver.verified(secret)).toHaveLength(0);
  });

  it('refuses URLs webhooks may not send to, naming the field, and creates nothing', async () => {
    for (const url of [
      'http://example.com/hook',
      'ftp://example.com/hook',
      'not a url',
      'https://user:pass@example.com/hook',
      'https://127.0.0.2/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      'https://[::127.0.0.1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
    ]) {
      const refused = await app.request('POST', '/v1/webhooks', { url, events: ['AgentCreated'] });
      expectProblem(refused, 422);
      expect(refused.body.errors).toEqual([{ path: 'url', message: expect.any(String) }]);
    }
    const invalid = await app.request('POST', '/v1/webhooks', { url: receiver.url, events: ['Agent Created'] });
    expectProblem(invalid, 400);
    expect(JSON.stringify(invalid.body.errors)).toContain('events');
    expectProblem(await app.request('POST', '/v1/webhooks', { url: receiver.url, events: [] }), 400);
    // URL parsing drops line breaks and tabs silently: a URL holding one is refused as sent.
    for (const url of [`${receiver.url}\r\nX-Injected: 1`, `${receiver.url}/a\tb`, `${receiver.url}\u0000`]) {
      const controls = await app.request('POST', '/v1/webhooks', { url, events: ['AgentCreated'] });
      expectProblem(controls, 400);
      expect(controls.body.errors).toEqual([{ path: 'url', message: expect.stringContaining('control characters') }]);
    }
    expect((await app.request('GET', '/v1/webhooks')).body.webhooks).toEqual([]);

    const { id } = await createWebhook();
    const patched = await app.request('PATCH', `/v1/webhooks/${id}`, { url: 'http://example.com/hook' });
    expectProblem(patched, 422);
    expectProblem(await app.request('PATCH', `/v1/webhooks/${id}`, { url: `${receiver.url}\n` }), 400);
    expect((await app.request('GET', `/v1/webhooks/${id}`)).body.url).toBe(receiver.url);
  });
});

describe('webhook secrets in the SQLite store', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    app = await startTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
  });

  it('keeps the secret out of the store, in plain text, even with an Idempotency-Key', async () => {
    const body = { url: receiver.url, events: ['AgentCreated'] };
    const headers = { 'idempotency-key': 'create-webhook-1' };
    const created = await app.request('POST', '/v1/webhooks', body, headers);
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const repeated = await app.request('POST', '/v1/webhooks', body, headers);
    expect(repeated.status).toBe(201);
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
    const { secret, ...webhook } = created.body;
    expect(repeated.body).toEqual(webhook);
    const rotated = await app.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, undefined, {
      'idempotency-key': 'rotate-1',
    });
    expect(rotated.body.secret).toMatch(/^whsec_/);
    await app.close();
    const stored = readdirSync(app.dataDir)
      .filter((file) => file.includes('.sqlite'))
      .map((file) => readFileSync(join(app.dataDir, file)).toString('latin1'))
      .join('');
    expect(stored).toContain(webhook.id);
    for (const shown of [secret, rotated.body.secret]) expect(stored).not.toContain(shown.slice('whsec_'.length));
    app = await startTestApp({ dataDir: app.dataDir, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  });
});

describe('webhooks and API keys', () => {
  it('lets read-only keys neither see nor manage webhooks', async () => {
    const write = 'write-key-0123456789';
    const read = 'read-key-0123456789ab';
    const app = await startTestApp({
      env: { API_KEYS: write, API_READ_KEYS: read, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    });
    try {
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      const created = await app.request(
        'POST',
        '/v1/webhooks',
        { url: 'http://127.0.0.1:9/x', events: ['*'] },
        as(write),
      );
      expect(created.status).toBe(201);
      expectProblem(await app.request('GET', '/v1/webhooks', undefined, as(read)), 403);
      expectProblem(await app.request('GET', `/v1/webhooks/${created.body.id}`, undefined, as(read)), 403);
      expectProblem(
        await app.request('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/x', events: ['*'] }, as(read)),
        403,
      );
      expect((await app.request('GET', '/v1/webhooks', undefined, as(write))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("keeps webhooks' events out of the log for read-only keys, in pages and on the stream, and not for others", async () => {
    const write = 'write-key-0123456789';
    const read = 'read-key-0123456789ab';
    const app = await startTestApp({
      env: { API_KEYS: write, API_READ_KEYS: read, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RUN_EXECUTOR_ENABLED: 'false' },
    });
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    const streams: EventStreamClient[] = [];
    try {
      const webhook = { url: 'http://127.0.0.1:9/hook?token=secret-token', events: ['AgentCreated'] };
      const created = await app.request('POST', '/v1/webhooks', webhook, as(write));
      expect(created.status).toBe(201);
      await app.request('POST', '/v1/agents', { name: 'before', model: 'openai/gpt-4o-mini' }, as(write));
      const shown = (page: { body: { events: Array<{ stream: string; type: string }> } }) =>
        page.body.events.map((event) => event.type);
      for (const query of ['', '?types=WebhookCreated', `?stream=webhook-${created.body.id}`, '?order=desc']) {
        const page = await app.request('GET', `/v1/events${query}`, undefined, as(read));
        expect(page.status).toBe(200);
        expect(shown(page).filter((type) => type.startsWith('Webhook'))).toEqual([]);
        expect(JSON.stringify(page.body)).not.toContain('secret-token');
      }
      expect(shown(await app.request('GET', '/v1/events', undefined, as(read)))).toContain('AgentCreated');
      expect(shown(await app.request('GET', '/v1/events?types=WebhookCreated', undefined, as(write)))).toEqual([
        'WebhookCreated',
      ]);

      const reader = await EventStreamClient.open(`${app.url}/v1/events`, as(read));
      const writer = await EventStreamClient.open(`${app.url}/v1/events`, as(write));
      streams.push(reader, writer);
      // Caught up, then live: another webhook and another agent.
      await app.request('POST', '/v1/webhooks', webhook, as(write));
      await app.request('POST', '/v1/agents', { name: 'after', model: 'openai/gpt-4o-mini' }, as(write));
      const names = (client: EventStreamClient) =>
        client.messages.filter((m) => m.event === 'AgentCreated').map((m) => m.data.data.name);
      await eventually(() => {
        expect(names(reader)).toEqual(['before', 'after']);
        expect(names(writer)).toEqual(['before', 'after']);
      });
      expect(reader.messages.filter((m) => m.event.startsWith('Webhook'))).toEqual([]);
      expect(writer.messages.filter((m) => m.event === 'WebhookCreated')).toHaveLength(2);
    } finally {
      for (const stream of streams) stream.close();
      await app.close();
    }
  });
});
