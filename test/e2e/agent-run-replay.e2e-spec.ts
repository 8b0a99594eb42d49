import { eventually } from '../support/eventually';
import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** Replaying an agent run over real HTTP, against the scripted model server (it answers with the task in capitals). */
describe.each(storeFixtures().slice(0, 2))('agent run replay (%s)', (storeName, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture | undefined;
  let api: TestApp;
  let agentId: string;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer((body) => ({ kind: 'text', text: lastUserMessage(body).toUpperCase() }));
    fixture = storeName === 'sqlite' ? undefined : await createFixture();
    api = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl }, fixture });
    const created = await api.request('POST', '/v1/agents', { name: 'echo', model: 'openai-compatible/m' });
    agentId = created.body.id;
  });
  afterEach(async () => {
    await api.close();
    await fixture?.stop();
    await model.close();
  });

  const run = async (task: string, context: object = {}) => {
    const ran = await api.request('POST', `/v1/agents/${agentId}/run`, { task, context }, { prefer: 'wait=10' });
    expect(ran.status).toBe(200);
    return ran.body;
  };
  const replay = (runId: string, body: object = {}, prefer = 'wait=10') =>
    api.request('POST', `/v1/agents/${agentId}/runs/${runId}/replay`, body, { prefer });

  it('runs the same task and context again as a new run linked by replayOf, on the agent as it is now', async () => {
    const original = await run('say hi', { lang: 'en' });
    expect(original).toMatchObject({ replayOf: null, agentVersion: 1 });
    expect(original.output).toMatch(/^SAY HI\n\nCONTEXT \(JSON\):\n[\s\S]*"LANG": "EN"/);
    await api.request('PATCH', `/v1/agents/${agentId}`, { instructions: 'Be brief.' });

    const replayed = await replay(original.id);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({
      agentId,
      task: 'say hi',
      context: { lang: 'en' },
      status: 'succeeded',
      output: original.output, // the model was sent the same task and context
      replayOf: original.id,
      agentVersion: 2,
    });
    expect(replayed.body.id).not.toBe(original.id);
    expect(replayed.headers.get('location')).toBe(`/v1/agents/${agentId}/runs/${replayed.body.id}`);
    expect(model.requests).toHaveLength(2);
    expect((await api.request('GET', `/v1/agents/${agentId}/runs/${replayed.body.id}`)).body.replayOf).toBe(
      original.id,
    );
    // The original is as it was.
    expect((await api.request('GET', `/v1/agents/${agentId}/runs/${original.id}`)).body).toEqual(original);
  });

  it('replays with an edited task or context; 202 without Prefer', async () => {
    const original = await run('say hi', { lang: 'en' });
    const edited = await replay(original.id, { task: 'say bye' });
    expect(edited.body).toMatchObject({ task: 'say bye', context: { lang: 'en' } });
    expect(edited.body.output).toMatch(/^SAY BYE\n\nCONTEXT \(JSON\):\n[\s\S]*"LANG": "EN"/);
    const queued = await replay(original.id, { context: { lang: 'fr' } }, '');
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ task: 'say hi', context: { lang: 'fr' }, replayOf: original.id });
    await eventually(async () =>
      expect((await api.request('GET', `/v1/agents/${agentId}/runs/${queued.body.id}`)).body.status).toBe('succeeded'),
    );
  });

  it('400 naming the field for a bad body, 404 for a run of another agent or none, 409 for an archived agent; nothing is queued', async () => {
    const original = await run('say hi');
    for (const [body, path] of [
      [{ task: '' }, 'task'],
      [{ task: 5 }, 'task'],
      [{ context: [1] }, 'context'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const refused = await replay(original.id, body);
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual([path]);
    }
    const other = (await api.request('POST', '/v1/agents', { name: 'other', model: 'openai-compatible/m' })).body;
    const elsewhere = await api.request('POST', `/v1/agents/${other.id}/runs/${original.id}/replay`, {});
    expect(elsewhere.status).toBe(404);
    expect((await replay('agentrun_00000000000000000000000000')).status).toBe(404);
    expect((await replay('wfrun_00000000000000000000000000')).status).toBe(400);
    await api.request('DELETE', `/v1/agents/${agentId}`);
    expect((await replay(original.id)).status).toBe(409);
    expect((await api.request('GET', `/v1/agents/${agentId}/runs`)).body.runs).toHaveLength(1);
  });

  it("a workflow step's agent run records the agent's version, and replays as a run of its own", async () => {
    await api.request('PATCH', `/v1/agents/${agentId}`, { instructions: 'Shout.' });
    const workflow = await api.request('POST', '/v1/workflows', {
      name: 'echoes',
      steps: [{ agent: 'echo', action: 'echo {{input.word}}' }],
    });
    const ran = await api.request(
      'POST',
      `/v1/workflows/${workflow.body.id}/trigger`,
      { input: { word: 'ping' } },
      { prefer: 'wait=10' },
    );
    expect(ran.body.status).toBe('succeeded');
    const stepRun = (await api.request('GET', `/v1/agents/${agentId}/runs/${ran.body.steps[0].agentRunId}`)).body;
    expect(stepRun).toMatchObject({ agentVersion: 2, workflowRunId: ran.body.id, stepIndex: 0 });

    const replayed = await replay(stepRun.id);
    expect(replayed.body).toMatchObject({
      task: 'echo ping',
      output: 'ECHO PING',
      replayOf: stepRun.id,
      workflowRunId: null,
      stepIndex: null,
    });
  });
});
