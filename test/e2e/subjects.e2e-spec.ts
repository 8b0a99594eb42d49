import Database from 'better-sqlite3';
import { readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const SECRET = 'a-data-key-secret-of-more-than-32-characters';
const FORGOTTEN = { forgotten: true };
const ADA_KEY = { 'idempotency-key': 'ada-run-1' };

/**
 * Forgetting a person: with DATA_KEY_SECRET, the content of events about a subject (a run's context.subjectId, a
 * thread's subjectId, a memory namespace bound to it) is sealed under its data key; DELETE /v1/subjects/{id}
 * destroys the key, and from then on that content reads as {"forgotten": true} everywhere, on both stores and
 * after a restart, while other subjects stay as they were. The model is the scripted server (a test double).
 */
describe.each(storeFixtures().slice(0, 2))('forgetting a subject (%s)', (storeName, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let receiver: WebhookReceiver;
  let fixture: StoreFixture | undefined;
  let app: TestApp;
  const env = () => ({
    DATA_KEY_SECRET: SECRET,
    OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });

  beforeEach(async () => {
    model = await startScriptedOpenAIServer((body) => ({
      kind: 'text',
      text: `Answer to ${String(body.messages[body.messages.length - 1].content)}`,
    }));
    receiver = await WebhookReceiver.start();
    if (storeName !== 'sqlite') fixture = await createFixture();
    app = await startTestApp({ env: env(), ...(fixture && { fixture }) });
  });
  afterEach(async () => {
    await app.close();
    await fixture?.stop();
    fixture = undefined;
    await receiver.close();
    await model.close();
  });

  const run = (agentId: string, task: string, context: object, headers: Record<string, string> = {}) =>
    app.request('POST', `/v1/agents/${agentId}/run`, { task, context }, { prefer: 'wait=10', ...headers });

  async function seed() {
    const agent = (await app.request('POST', '/v1/agents', { name: 'clerk', model: 'openai-compatible/m' })).body;
    const hook = await app.request('POST', '/v1/webhooks', { url: receiver.url, events: ['AgentRunSucceeded'] });
    expect(hook.status).toBe(201);
    const bound = await app.request('PUT', '/v1/subjects/ada/namespaces', { namespaces: ['users/ada'] });
    expect(bound.status).toBe(200);
    expect((await app.request('PUT', '/v1/memory/users%2Fada/diet', { value: 'Ada eats no meat' })).status).toBe(200);
    await app.request('PUT', '/v1/memory/users%2Fbob/diet', { value: 'Bob eats fish' });
    const thread = await app.request('POST', '/v1/threads', { agentId: agent.id, subjectId: 'ada' });
    expect(thread.body.subjectId).toBe('ada');
    const onThread = await app.request(
      'POST',
      `/v1/threads/${thread.body.id}/runs`,
      { task: 'Ada asks about her visa' },
      { prefer: 'wait=10' },
    );
    expect(onThread.body.status).toBe('succeeded');
    // Its answer is kept for repeats of the Idempotency-Key: sealed too.
    const ada = await run(agent.id, 'Ada lives at 12 Rua Augusta', { subjectId: 'ada' }, ADA_KEY);
    const bob = await run(agent.id, 'Bob lives at 3 Baker Street', { subjectId: 'bob' });
    const plain = await run(agent.id, 'The weather in Lisbon', {});
    expect(ada.body.output).toMatch(/^Answer to Ada lives at 12 Rua Augusta/);
    expect(plain.body.status).toBe('succeeded');
    await eventually(() => expect(receiver.received).toHaveLength(4));
    return { agent, thread: thread.body, onThread: onThread.body, ada: ada.body, bob: bob.body, hook: hook.body };
  }

  it('seals what is about the subject, forgets it everywhere at once, and keeps it forgotten after a restart', async () => {
    const { agent, thread, onThread, ada, bob, hook } = await seed();
    if (storeName === 'sqlite') {
      // In the log itself, the subjects' content is sealed (each under its own key); the rest is not.
      const db = new Database(join(app.dataDir, 'events.sqlite'), { readonly: true });
      const log = db
        .prepare<[], { data: string }>('SELECT data FROM events')
        .all()
        .map((row) => row.data)
        .join('\n');
      db.close();
      expect(log).not.toContain('Rua Augusta');
      expect(log).not.toContain('her visa');
      expect(log).not.toContain('eats no meat');
      expect(log).not.toContain('Baker Street');
      expect(log).toContain('The weather in Lisbon');
    }
    const looked = await app.request('GET', '/v1/subjects/ada');
    expect(looked.body).toEqual({
      subjectId: 'ada',
      namespaces: ['users/ada'],
      threads: [thread.id],
      runs: [onThread.id, ada.id].sort(),
      memoryItems: 1,
      forgottenAt: null,
    });

    const forgotten = await app.request('DELETE', '/v1/subjects/ada');
    expect(forgotten.status).toBe(200);
    expect(forgotten.body.forgottenAt).toEqual(expect.any(String));

    const expectForgotten = async () => {
      const runNow = (await app.request('GET', `/v1/agents/${agent.id}/runs/${ada.id}`)).body;
      expect(runNow).toMatchObject({ status: 'succeeded', task: FORGOTTEN, output: FORGOTTEN, context: FORGOTTEN });
      expect(runNow.usage).toEqual(ada.usage);
      expectProblem(await app.request('GET', `/v1/threads/${thread.id}`), 404);
      expectProblem(await app.request('GET', '/v1/memory/users%2Fada/diet'), 404);
      expectProblem(await app.request('GET', '/v1/memory/users%2Fada/diet/history'), 404);
      expect((await app.request('GET', '/v1/memory/users%2Fada')).body.items).toEqual([]);
      const events = (await app.request('GET', `/v1/events?stream=agentrun-${ada.id}`)).body.events;
      expect(events.find((e: any) => e.type === 'AgentRunQueued').data).toMatchObject({ task: FORGOTTEN });
      expect(events.find((e: any) => e.type === 'AgentRunSucceeded').data).toMatchObject({ output: FORGOTTEN });
      const threadEvents = (await app.request('GET', `/v1/events?stream=thread-${thread.id}`)).body.events;
      const exchange = threadEvents.find((e: any) => e.type === 'ThreadExchangeRecorded').data;
      expect(exchange.messages.map((m: any) => m.content)).toEqual([FORGOTTEN, FORGOTTEN]);
      // The other subject is untouched.
      expect((await app.request('GET', `/v1/agents/${agent.id}/runs/${bob.id}`)).body.task).toBe(
        'Bob lives at 3 Baker Street',
      );
      expect((await app.request('GET', '/v1/memory/users%2Fbob/diet')).body.value).toBe('Bob eats fish');
      // A repeat of the run's request cannot get its kept answer back, and does not run again.
      const repeat = await run(agent.id, 'Ada lives at 12 Rua Augusta', { subjectId: 'ada' }, ADA_KEY);
      expectProblem(repeat, 409, 'idempotent-answer-forgotten');
      const { runs } = (await app.request('GET', `/v1/agents/${agent.id}/runs?limit=100`)).body;
      expect(runs.filter((r: any) => r.task?.forgotten)).toHaveLength(2);
    };
    await expectForgotten();

    // A delivery sent again reads the event as it is now.
    const attempts = (await app.request('GET', `/v1/webhooks/${hook.id}/deliveries`)).body.attempts;
    const adaDelivery = attempts.find((a: any) => a.eventStream === `agentrun-${ada.id}`);
    const sent = receiver.received.length;
    const again = await app.request('POST', `/v1/webhooks/${hook.id}/deliveries/${adaDelivery.deliveryId}/redeliver`);
    expect(again.status).toBe(200);
    expect(receiver.received[sent].event.data).toMatchObject({ runId: ada.id, output: FORGOTTEN });

    // A new instance on the same data, its read models rebuilt from the log, knows nothing more.
    await app.close();
    for (const file of readdirSync(app.dataDir).filter((name) => name.startsWith('read-models.sqlite'))) {
      rmSync(join(app.dataDir, file));
    }
    app = await startTestApp({ env: env(), dataDir: app.dataDir, ...(fixture && { fixture }) });
    await expectForgotten();
    const rebuilt = (await app.request('GET', '/v1/subjects/ada')).body;
    expect(rebuilt.forgottenAt).toBe(forgotten.body.forgottenAt);
  });

  it('binds a namespace to one subject only, with those above and below it', async () => {
    const bind = (subject: string, namespaces: string[]) =>
      app.request('PUT', `/v1/subjects/${subject}/namespaces`, { namespaces });
    expect((await bind('ada', ['users/ada'])).body.namespaces).toEqual(['users/ada']);
    for (const taken of ['users', 'users/ada', 'users/ada/notes']) {
      const refused = await bind('bob', [taken]);
      expectProblem(refused, 400);
      expect(refused.body.errors).toEqual([
        { path: 'namespaces.0', message: 'is, or holds, a namespace of another subject' },
      ]);
    }
    expectProblem(await bind('bob', ['users/../x']), 400);
    expect((await bind('bob', ['users/bob'])).body.namespaces).toEqual(['users/bob']);
    // Binding again replaces: ada's namespace is free once she lets it go.
    expect((await bind('ada', [])).body.namespaces).toEqual([]);
    expect((await bind('bob', ['users/bob', 'users/ada'])).body.namespaces).toEqual(['users/ada', 'users/bob']);
  });
});

describe('subjects without DATA_KEY_SECRET', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app.close());

  it('cannot be forgotten: a 409 naming the variable', async () => {
    const answer = await app.request('DELETE', '/v1/subjects/ada');
    expectProblem(answer, 409, 'subject-keys-not-configured');
    expect(answer.body.detail).toContain('DATA_KEY_SECRET');
    expectProblem(await app.request('DELETE', '/v1/subjects/no%20spaces'), 400);
  });
});

describe('the spans of a run about a subject', () => {
  it('carry none of its content to the collector, even capturing content', async () => {
    const received: Buffer[] = [];
    const collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'An answer to keep' }));
    const app = await startTestApp({
      env: {
        DATA_KEY_SECRET: SECRET,
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_CAPTURE_CONTENT: 'true',
      },
    });
    try {
      const agent = (await app.request('POST', '/v1/agents', { name: 'clerk', model: 'openai-compatible/m' })).body;
      const path = `/v1/agents/${agent.id}/run`;
      const wait = { prefer: 'wait=10' };
      await app.request('POST', path, { task: 'Ada lives at 12 Rua Augusta', context: { subjectId: 'ada' } }, wait);
      await app.request('POST', path, { task: 'The weather in Lisbon' }, wait);
    } finally {
      // Stopping sends what the batch still holds.
      await app.close();
      await model.close();
      collector.close();
    }
    const sent = Buffer.concat(received).toString('utf8');
    expect(sent).toContain('The weather in Lisbon');
    expect(sent).toContain('An answer to keep');
    expect(sent).not.toContain('Rua Augusta');
    expect(sent.split('An answer to keep')).toHaveLength(2);
  });
});
