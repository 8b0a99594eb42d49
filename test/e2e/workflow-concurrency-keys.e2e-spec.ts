import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';

/**
 * Concurrency keys over real HTTP, on the scripted model server (a stand-in for a paid model provider): at limit 1,
 * one run per key at a time in trigger order, while a run of another key is never held back; the key's rules as the
 * API shows and refuses them.
 */
describe('workflow concurrency keys (e2e)', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) =>
      lastUserMessage(body).includes('hang') ? { kind: 'hang' } : { kind: 'text', text: 'done' },
    );
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    expect((await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const statusOf = async (path: string) => (await app.request('GET', path)).body.status as string;

  it('runs one run per key at a time, in trigger order, and never holds another key back', async () => {
    const created = await app.request('POST', '/v1/workflows', {
      name: 'per customer',
      steps: [{ agent: 'worker', action: 'work for {{input.customer}}: {{input.mode}}' }],
      concurrency: { key: '{{input.customer}}', limit: 1 },
    });
    expect(created.status).toBe(201);
    expect(created.body.concurrency).toEqual({ key: '{{input.customer}}', limit: 1 });
    const id = created.body.id as string;
    const trigger = async (customer: string, mode: string) => {
      const run = await app.request('POST', `/v1/workflows/${id}/trigger`, { input: { customer, mode } });
      expect(run.status).toBe(202);
      return `/v1/workflows/${id}/runs/${run.body.id}`;
    };
    const a1 = await trigger('acme', 'hang');
    const a2 = await trigger('acme', 'go');
    const b1 = await trigger('globex', 'go');
    // B's run goes through while A's second run waits behind A's first, which is still answering.
    await eventually(async () => expect(await statusOf(b1)).toBe('succeeded'));
    expect(await statusOf(a1)).toBe('running');
    expect(await statusOf(a2)).toBe('queued');
    expect((await app.request('POST', `${a1}/cancel`)).status).toBe(200);
    await eventually(async () => expect(await statusOf(a2)).toBe('succeeded'));
    const second = (await app.request('GET', a2)).body;
    const first = (await app.request('GET', a1)).body;
    expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.endedAt));

    // The limit can be changed and removed like the rest of the definition.
    const removed = await app.request('PATCH', `/v1/workflows/${id}`, { concurrency: null });
    expect(removed.status).toBe(200);
    expect(removed.body.concurrency).toBeNull();
  });

  it.each([
    [{ key: '{{steps.0.output}}', limit: 1 }, 'concurrency.key', 'cannot read {{steps'],
    [{ key: '{{input.customer}}', limit: 0 }, 'concurrency.limit', ''],
    [{ limit: 1 }, 'concurrency.key', 'concurrency.key is required'],
  ])('refuses concurrency %j with a 400 at %s', async (concurrency, path, message) => {
    const response = await app.request('POST', '/v1/workflows', {
      name: 'refused',
      steps: [{ agent: 'worker', action: 'a' }],
      concurrency,
    });
    expectProblem(response, 400);
    const error = response.body.errors.find((e: { path: string }) => e.path === path);
    expect(error?.message).toContain(message);
  });
});
