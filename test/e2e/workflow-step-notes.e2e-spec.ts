import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** What a run says of its steps beyond their status: why a step was skipped, and what its task could not fill. */
describe.each(storeFixtures())('workflow run steps, why skipped and what is missing, on %s', (_name, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => ({ kind: 'text', text: lastUserMessage(body).toUpperCase() }));
    fixture = await createFixture();
    app = await startTestApp({ fixture, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
    expect((await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(
      201,
    );
  });
  afterAll(async () => {
    await app.close();
    await fixture.stop();
    await model.close();
  });

  async function run(steps: unknown[], input: Record<string, unknown>) {
    const created = await app.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps });
    expect(created.status).toBe(201);
    const ran = await app.request('POST', `/v1/workflows/${created.body.id}/trigger`, { input }, { prefer: 'wait=10' });
    expect(ran.status).toBe(200);
    const read = await app.request('GET', `/v1/workflows/${created.body.id}/runs/${ran.body.id}`);
    const listed = await app.request('GET', `/v1/workflows/${created.body.id}/runs`);
    // The answer, the run read again and the run as listed say the same.
    expect(read.body).toEqual(ran.body);
    expect(listed.body.runs).toEqual([ran.body]);
    return ran.body;
  }

  it('says on each skipped step why it was skipped', async () => {
    const body = await run(
      [
        { id: 'news', agent: 'worker', action: 'news', when: { '==': [{ var: 'input.kind' }, 'news'] } },
        { id: 'publish', agent: 'worker', action: 'publish {{steps.news.output}}' },
        { id: 'memo', agent: 'worker', action: 'memo', needs: [] },
      ],
      { kind: 'memo' },
    );
    expect(body.steps.map((s: any) => [s.id, s.status, s.skipReason])).toEqual([
      ['news', 'skipped', 'condition_false'],
      ['publish', 'skipped', 'needs_skipped'],
      ['memo', 'succeeded', undefined],
    ]);
  });

  it('records on a step the placeholders whose path led nowhere, and none where every path led somewhere', async () => {
    const body = await run(
      [
        { id: 'typo', agent: 'worker', action: 'About {{input.topc}} and {{input.user.nmae}} for {{input.user.name}}' },
        { id: 'fine', agent: 'worker', action: 'About {{input.topic}}', needs: [] },
      ],
      { topic: 'cron', user: { name: 'Ada' } },
    );
    expect(body.steps[0]).toMatchObject({
      status: 'succeeded',
      task: 'About  and  for Ada',
      missing: ['input.topc', 'input.user.nmae'],
    });
    expect(body.steps[1].task).toBe('About cron');
    expect(body.steps[1]).not.toHaveProperty('missing');
  });
});
