import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Datasets over real HTTP on the embedded store: made by hand and from runs, each change an event that makes the
 * dataset's next version, readable as it was at any version. The runs' model is a scripted OpenAI-compatible server
 * (for a paid provider).
 */
describe('datasets', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body).split('\n')[0];
      if (task.includes('fail')) return { kind: 'error', status: 400, message: 'refused' };
      return { kind: 'text', text: `Answer to ${task}` };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', MODEL_MAX_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const create = (body: Record<string, unknown>) => app.request('POST', '/v1/datasets', body);
  const addItem = (datasetId: string, body: Record<string, unknown>) =>
    app.request('POST', `/v1/datasets/${datasetId}/items`, body);
  const items = (datasetId: string, query = '') => app.request('GET', `/v1/datasets/${datasetId}/items${query}`);

  it('creates a dataset, adds and removes items by hand, each change a new version readable later', async () => {
    const created = await create({ name: 'support questions', description: 'From the help desk', target: 'agent' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/datasets/${created.body.id}`);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^dataset_/),
      name: 'support questions',
      description: 'From the help desk',
      target: 'agent',
      status: 'active',
      version: 1,
      itemCount: 0,
      archivedAt: null,
    });
    const id = created.body.id;

    const first = await addItem(id, {
      input: { task: 'Reset my password' },
      expected: 'Use the link',
      metadata: { tag: 'a' },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^dsitem_/),
      datasetId: id,
      input: { task: 'Reset my password', context: {} },
      expected: 'Use the link',
      metadata: { tag: 'a' },
      sourceRunId: null,
      addedInVersion: 2,
    });
    const second = await addItem(id, { input: { task: 'Close my account', context: { plan: 'pro' } } });
    expect(second.body).toMatchObject({ expected: null, metadata: {}, addedInVersion: 3 });
    const removed = await app.request('DELETE', `/v1/datasets/${id}/items/${first.body.id}`);
    expect(removed.status).toBe(204);

    const now = await app.request('GET', `/v1/datasets/${id}`);
    expect(now.body).toMatchObject({ version: 4, itemCount: 1 });
    expect((await items(id)).body).toEqual({ items: [second.body], version: 4, nextCursor: null });
    // Each version is kept: version 3 held both items, version 2 the first alone.
    expect((await items(id, '?version=3')).body.items.map((item: { id: string }) => item.id)).toEqual([
      first.body.id,
      second.body.id,
    ]);
    expect((await items(id, '?version=2')).body.items).toEqual([first.body]);
    expectProblem(await items(id, '?version=5'), 400);

    const history = await app.request('GET', `/v1/datasets/${id}/events`);
    expect(history.body.events.map((event: { type: string }) => event.type)).toEqual([
      'DatasetCreated',
      'DatasetItemAdded',
      'DatasetItemAdded',
      'DatasetItemRemoved',
    ]);
    // Removing it twice finds no item.
    expectProblem(await app.request('DELETE', `/v1/datasets/${id}/items/${first.body.id}`), 404);
  });

  it('makes items from agent runs: the task and context, the output as expected unless given, and the link', async () => {
    const agent = await app.request('POST', '/v1/agents', { name: 'helper', model: 'openai-compatible/m' });
    const run = (task: string) =>
      app.request('POST', `/v1/agents/${agent.body.id}/run`, { task, context: { lang: 'en' } }, { prefer: 'wait=10' });
    const succeeded = await run('What is cron?');
    const failed = await run('Please fail');
    expect([succeeded.body.status, failed.body.status]).toEqual(['succeeded', 'failed']);
    const dataset = (await create({ name: 'from traffic', target: 'agent' })).body;

    const fromRun = await addItem(dataset.id, { fromRunId: succeeded.body.id });
    expect(fromRun.status).toBe(201);
    expect(fromRun.body).toMatchObject({
      input: { task: 'What is cron?', context: { lang: 'en' } },
      expected: 'Answer to What is cron?',
      sourceRunId: succeeded.body.id,
    });
    const given = await addItem(dataset.id, {
      fromRunId: succeeded.body.id,
      expected: 'Better',
      metadata: { by: 'me' },
    });
    expect(given.body).toMatchObject({ expected: 'Better', metadata: { by: 'me' } });
    // A run that failed gives its input and no answer expected.
    const fromFailed = await addItem(dataset.id, { fromRunId: failed.body.id });
    expect(fromFailed.body).toMatchObject({ input: { task: 'Please fail' }, expected: null });
  });

  it('makes items from workflow runs for a workflow dataset, and refuses runs of the other kind', async () => {
    await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m' });
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'draft',
      steps: [{ agent: 'writer', action: 'Write about {{input.topic}}' }],
    });
    const ran = await app.request(
      'POST',
      `/v1/workflows/${workflow.body.id}/trigger`,
      { input: { topic: 'owls' } },
      { prefer: 'wait=10' },
    );
    expect(ran.body.status).toBe('succeeded');
    const dataset = (await create({ name: 'drafts', target: 'workflow' })).body;
    const item = await addItem(dataset.id, { fromRunId: ran.body.id });
    expect(item.body).toMatchObject({
      input: { topic: 'owls' },
      expected: 'Answer to Write about owls',
      sourceRunId: ran.body.id,
    });
    // A workflow item's input is the trigger's: any object.
    expect((await addItem(dataset.id, { input: { topic: 'bats', depth: 2 } })).status).toBe(201);

    const agents = (await create({ name: 'agent set', target: 'agent' })).body;
    expectProblem(await addItem(agents.id, { fromRunId: ran.body.id }), 422);
    expectProblem(await addItem(dataset.id, { fromRunId: 'agentrun_01JDQC1C2D3E4F5G6H7J8K9M0N' }), 422);
    expectProblem(await addItem(agents.id, { fromRunId: 'agentrun_01JDQC1C2D3E4F5G6H7J8K9M0N' }), 422);
    expect((await app.request('GET', `/v1/datasets/${agents.id}`)).body.version).toBe(1);
  });

  it('refuses bad datasets and items with a clear problem, and changes nothing', async () => {
    expectProblem(await create({ name: '', target: 'agent' }), 400);
    expectProblem(await create({ name: 'x', target: 'graph' }), 400);
    expectProblem(await create({ name: 'x' }), 400);
    const dataset = (await create({ name: 'strict', target: 'agent' })).body;
    const refused = [
      {},
      { input: 'a task' },
      { input: { task: '' } },
      { input: { task: 'ok', context: [] } },
      { input: { task: 'ok', extra: 1 } },
      { input: { task: 'ok' }, fromRunId: 'agentrun_01JDQC1C2D3E4F5G6H7J8K9M0N' },
      { fromRunId: 'run_1' },
      { input: { task: 'ok' }, metadata: 'tag' },
      { input: { task: 'x'.repeat(70_000) } },
    ];
    for (const body of refused) expectProblem(await addItem(dataset.id, body), 400);
    expectProblem(await addItem('dataset_01JDQC1C2D3E4F5G6H7J8K9M0N', { input: { task: 'ok' } }), 404);
    expectProblem(await app.request('GET', '/v1/datasets/dataset_nope'), 400);
    expect((await app.request('GET', `/v1/datasets/${dataset.id}`)).body).toMatchObject({ version: 1, itemCount: 0 });
  });

  it('archives a dataset: it is listed as archived and takes no more changes', async () => {
    const dataset = (await create({ name: 'old', target: 'agent' })).body;
    const item = (await addItem(dataset.id, { input: { task: 'Keep me' } })).body;
    const archived = await app.request('POST', `/v1/datasets/${dataset.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', version: 2, archivedAt: expect.any(String) });
    expect((await app.request('POST', `/v1/datasets/${dataset.id}/archive`)).body).toEqual(archived.body);
    expectProblem(await addItem(dataset.id, { input: { task: 'One more' } }), 409);
    expectProblem(await app.request('DELETE', `/v1/datasets/${dataset.id}/items/${item.id}`), 409);
    expect((await items(dataset.id)).body.items).toEqual([item]);
    const listed = await app.request('GET', '/v1/datasets?status=archived');
    expect(listed.body.datasets.map((d: { id: string }) => d.id)).toContain(dataset.id);
    const active = await app.request('GET', '/v1/datasets?status=active');
    expect(active.body.datasets.map((d: { id: string }) => d.id)).not.toContain(dataset.id);
  });

  it('pages datasets and items with cursors', async () => {
    const dataset = (await create({ name: 'many', target: 'workflow' })).body;
    for (let i = 0; i < 5; i++) await addItem(dataset.id, { input: { n: i } });
    const firstPage = await items(dataset.id, '?limit=2');
    expect(firstPage.body.items.map((item: { input: { n: number } }) => item.input.n)).toEqual([0, 1]);
    const secondPage = await items(dataset.id, `?limit=2&cursor=${firstPage.body.nextCursor}`);
    expect(secondPage.body.items.map((item: { input: { n: number } }) => item.input.n)).toEqual([2, 3]);
    expectProblem(await items(dataset.id, '?cursor=bm9wZQ'), 400);
    const listed = await app.request('GET', '/v1/datasets?limit=1');
    expect(listed.body.datasets).toHaveLength(1);
    expect(listed.body.nextCursor).toEqual(expect.any(String));
  });
});
