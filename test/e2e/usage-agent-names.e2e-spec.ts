import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** Usage grouped by agent names each agent beside its id, as the agent is named now. */
describe.each(storeFixtures())('usage by agent, with names, on %s', (_name, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(() => ({
      kind: 'text',
      text: 'ok',
      usage: { inputTokens: 10, outputTokens: 5 },
    }));
    fixture = await createFixture();
    app = await startTestApp({ fixture, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await fixture.stop();
    await model.close();
  });

  const runOnce = async (agentId: string) => {
    const ran = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x' }, { prefer: 'wait=10' });
    expect(ran.body.status).toBe('succeeded');
  };
  const names = async (groupBy: string) =>
    (await app.request('GET', `/v1/usage?groupBy=${groupBy}`)).body.groups.map((g: any) => [g.key, g.agentName]);

  it('names each agent as it is named now, renamed or archived, and only when grouped by agent', async () => {
    const first = (await app.request('POST', '/v1/agents', { name: 'scout', model: 'openai-compatible/m' })).body;
    const second = (await app.request('POST', '/v1/agents', { name: 'scribe', model: 'openai-compatible/m' })).body;
    await runOnce(first.id);
    await runOnce(first.id);
    await runOnce(second.id);
    expect(await names('agent')).toEqual([
      [first.id, 'scout'],
      [second.id, 'scribe'],
    ]);

    // The sums are kept by id: the runs from before the rename show under the new name.
    expect((await app.request('PATCH', `/v1/agents/${first.id}`, { name: 'explorer' })).status).toBe(200);
    expect((await app.request('DELETE', `/v1/agents/${second.id}`)).status).toBe(200);
    expect(await names('agent')).toEqual([
      [first.id, 'explorer'],
      [second.id, 'scribe'],
    ]);
    expect(await names('model')).toEqual([['openai-compatible/m', undefined]]);
  });
});
