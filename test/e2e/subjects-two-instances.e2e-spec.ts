import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

const FORGOTTEN = { forgotten: true };

/**
 * Subjects on two instances sharing one EventStoreDB (the test double), each with its own data folder: the data
 * keys are shared through the store, so each instance opens what the other sealed, and a subject forgotten on one
 * is forgotten on both. The model is the scripted server (a test double).
 */
describe('forgetting a subject across two instances on one EventStoreDB', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture;
  let first: TestApp;
  let second: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer((body) => ({
      kind: 'text',
      text: `Answer to ${String(body.messages[body.messages.length - 1].content)}`,
    }));
    const [, createTestDouble] = storeFixtures().find(([name]) => name === 'eventstoredb test double')!;
    fixture = await createTestDouble();
    const env = {
      DATA_KEY_SECRET: 'a-data-key-secret-of-more-than-32-characters',
      OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
    };
    first = await startTestApp({ fixture, env });
    second = await startTestApp({ fixture, env });
  });
  afterEach(async () => {
    await Promise.all([first.close(), second.close()]);
    await fixture.stop();
    await model.close();
  });

  const run = (app: TestApp, agentId: string, task: string, subjectId: string) =>
    app.request('POST', `/v1/agents/${agentId}/run`, { task, context: { subjectId } }, { prefer: 'wait=10' });
  const runOn = async (app: TestApp, agentId: string, runId: string) =>
    (await app.request('GET', `/v1/agents/${agentId}/runs/${runId}`)).body;

  it('opens on each instance what the other sealed, and forgets on both what either forgets', async () => {
    const agent = (await first.request('POST', '/v1/agents', { name: 'clerk', model: 'openai-compatible/m' })).body;
    expect((await first.request('PUT', '/v1/subjects/ada/namespaces', { namespaces: ['users/ada'] })).status).toBe(200);
    const ada = (await run(first, agent.id, 'Ada lives at 12 Rua Augusta', 'ada')).body;
    const bob = (await run(second, agent.id, 'Bob lives at 3 Baker Street', 'bob')).body;
    expect(ada.status).toBe('succeeded');

    // The second instance learns the namespace's subject from the log, and seals its put under ada's key.
    await eventually(async () =>
      expect((await second.request('GET', '/v1/subjects/ada')).body.namespaces).toEqual(['users/ada']),
    );
    expect((await second.request('PUT', '/v1/memory/users%2Fada/diet', { value: 'Ada eats no meat' })).status).toBe(
      200,
    );
    const adaLater = (await run(second, agent.id, 'Ada moved to Porto', 'ada')).body;

    // Each reads the other's sealed content opened: the keys are in the store, not only in a data folder.
    expect((await runOn(second, agent.id, ada.id)).task).toBe('Ada lives at 12 Rua Augusta');
    expect((await runOn(first, agent.id, bob.id)).output).toMatch(/^Answer to Bob lives at 3 Baker Street/);
    await eventually(async () =>
      expect((await first.request('GET', '/v1/memory/users%2Fada/diet')).body.value).toBe('Ada eats no meat'),
    );
    const stored = JSON.stringify(fixture.double!.allEvents().map((event) => Buffer.from(event.data).toString()));
    expect(stored).not.toContain('Rua Augusta');
    expect(stored).not.toContain('eats no meat');
    // The log never serves a wrapped key.
    const log = (await first.request('GET', '/v1/events?stream=subjectkeys-ada')).body.events;
    expect(log.length).toBeGreaterThan(0);
    expect(JSON.stringify(log)).not.toContain('encryptedSecret');

    expect((await first.request('DELETE', '/v1/subjects/ada')).status).toBe(200);

    // The key stream is gone from the store; the other instance drops its copies as it sees the subject forgotten.
    expect(fixture.double!.streamEvents('subjectkeys-ada')).toEqual([]);
    for (const app of [first, second]) {
      await eventually(async () => {
        for (const runId of [ada.id, adaLater.id]) {
          expect(await runOn(app, agent.id, runId)).toMatchObject({ task: FORGOTTEN, output: FORGOTTEN });
        }
        expectProblem(await app.request('GET', '/v1/memory/users%2Fada/diet'), 404);
      });
      expect((await runOn(app, agent.id, bob.id)).task).toBe('Bob lives at 3 Baker Street');
    }

    // Written about again, on the other instance: a new key, which both can open.
    const again = (await run(second, agent.id, 'Ada came back', 'ada')).body;
    expect((await runOn(first, agent.id, again.id)).task).toBe('Ada came back');
  });
});
