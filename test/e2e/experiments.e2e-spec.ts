import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Experiments over real HTTP on the embedded store: a dataset's items run on an agent, at most `concurrency` at
 * once, each answer scored by every scorer. The model is a scripted OpenAI-compatible server over HTTP (for a paid
 * provider), counting its requests.
 */
describe('experiments', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;
  /** The most model requests open at once, since the last reset. */
  let mostOpen = 0;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      mostOpen = Math.max(mostOpen, model.openRequests());
      const task = lastUserMessage(body).split('\n')[0];
      if (task.includes('fail')) return { kind: 'error', status: 400, message: 'refused' };
      // The capital of each country the task names, slowly enough that runs overlap.
      const knowsJapan = body.model !== 'forgetful';
      const capital = /France/.test(task) ? 'Paris' : /Japan/.test(task) && knowsJapan ? 'Tokyo' : 'I do not know';
      return { kind: 'text', text: `The capital is ${capital}.`, delayMs: 150 };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', MODEL_MAX_RETRIES: '0' },
    });
    await app.request('POST', '/v1/agents', { name: 'geographer', model: 'openai-compatible/m' });
    await app.request('POST', '/v1/scorers', { name: 'names the capital', type: 'contains' });
    await app.request('POST', '/v1/scorers', {
      name: 'fast',
      type: 'rule',
      rule: { '<': [{ var: 'run.durationMs' }, 60_000] },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => {
    model.requests.splice(0);
    mostOpen = 0;
  });

  async function dataset(tasks: Array<[string, string]>) {
    const created = (await app.request('POST', '/v1/datasets', { name: 'capitals', target: 'agent' })).body;
    for (const [task, expected] of tasks) {
      expect(
        (await app.request('POST', `/v1/datasets/${created.id}/items`, { input: { task }, expected })).status,
      ).toBe(201);
    }
    return created.id as string;
  }

  it('runs every item at most `concurrency` at once, scores each answer, and passes its thresholds', async () => {
    const datasetId = await dataset([
      ['What is the capital of France?', 'Paris'],
      ['What is the capital of Japan?', 'Tokyo'],
      ['What is the capital of Peru?', 'Lima'],
      ['What is the capital of France, again?', 'Paris'],
    ]);
    const created = await app.request(
      'POST',
      '/v1/experiments',
      {
        dataset: datasetId,
        target: { agent: 'geographer' },
        scorers: ['names the capital', 'fast'],
        concurrency: 2,
        thresholds: { 'names the capital': 0.7 },
      },
      { prefer: 'wait=20' },
    );
    expect(created.status).toBe(200);
    expect(created.headers.get('location')).toBe(`/v1/experiments/${created.body.id}`);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^experiment_/),
      status: 'succeeded',
      dataset: { id: datasetId, version: 5, itemCount: 4 },
      target: { agent: 'geographer' },
      scorers: ['names the capital', 'fast'],
      concurrency: 2,
      mode: 'live',
      progress: { total: 4, started: 4, scored: 4 },
      passed: true,
      summary: {
        scorers: [
          { scorer: 'names the capital', mean: 0.75, threshold: 0.7, passed: true },
          { scorer: 'fast', mean: 1, threshold: null, passed: null },
        ],
        passed: true,
        items: { total: 4, succeeded: 4, failed: 0 },
      },
    });
    // One model call per item, never more than two at once.
    expect(model.requests).toHaveLength(4);
    expect(mostOpen).toBeLessThanOrEqual(2);

    const results = await app.request('GET', `/v1/experiments/${created.body.id}/results`);
    expect(results.body.results).toHaveLength(4);
    const peru = results.body.results.find((result: { output: string }) => result.output.includes('I do not know'));
    expect(peru).toMatchObject({
      status: 'succeeded',
      scores: [
        { scorer: 'names the capital', score: 0 },
        { scorer: 'fast', score: 1 },
      ],
    });
    // Each item's run is an ordinary run that names its experiment.
    const agentId = (await app.request('GET', '/v1/agents?name=geographer')).body.agents[0].id;
    const run = await app.request('GET', `/v1/agents/${agentId}/runs/${peru.runId}`);
    expect(run.body).toMatchObject({ experimentId: created.body.id, task: 'What is the capital of Peru?' });
    const history = await app.request('GET', `/v1/experiments/${created.body.id}/events`);
    const types = history.body.events.map((event: { type: string }) => event.type);
    expect(types[0]).toBe('ExperimentCreated');
    expect(types.filter((type: string) => type === 'ExperimentItemScored')).toHaveLength(4);
    expect(types[types.length - 1]).toBe('ExperimentCompleted');
  });

  it('fails its thresholds when a change makes answers worse, and counts failed runs as 0', async () => {
    const datasetId = await dataset([
      ['What is the capital of Peru?', 'Lima'],
      ['Please fail now', 'anything'],
    ]);
    const created = await app.request('POST', '/v1/experiments', {
      dataset: datasetId,
      target: { agent: 'geographer' },
      scorers: ['names the capital'],
      thresholds: { 'names the capital': 0.5 },
    });
    expect(created.status).toBe(202);
    expect(created.body.status).toMatch(/queued|running/);
    const done = await eventually(async () => {
      const got = await app.request('GET', `/v1/experiments/${created.body.id}`);
      expect(got.body.status).toBe('succeeded');
      return got.body;
    });
    expect(done).toMatchObject({
      passed: false,
      summary: { items: { total: 2, succeeded: 1, failed: 1 }, scorers: [{ mean: 0, passed: false }] },
    });
    const listed = await app.request('GET', '/v1/experiments');
    expect(listed.body.experiments.map((e: { id: string }) => e.id)).toContain(created.body.id);
  });

  it('runs the items of an earlier version of the dataset', async () => {
    const datasetId = await dataset([
      ['What is the capital of France?', 'Paris'],
      ['What is the capital of Japan?', 'Tokyo'],
    ]);
    const created = await app.request(
      'POST',
      '/v1/experiments',
      { dataset: datasetId, datasetVersion: 2, target: { agent: 'geographer' }, scorers: ['names the capital'] },
      { prefer: 'wait=20' },
    );
    expect(created.body).toMatchObject({ status: 'succeeded', dataset: { version: 2, itemCount: 1 }, passed: null });
    expect(model.requests).toHaveLength(1);
  });

  it('compares two experiments on one dataset: the change of each mean, and the items that got worse first', async () => {
    // The change: a second agent that knows only France.
    await app.request('POST', '/v1/agents', { name: 'forgetful', model: 'openai-compatible/forgetful' });
    const datasetId = await dataset([
      ['What is the capital of France?', 'Paris'],
      ['What is the capital of Japan?', 'Tokyo'],
      ['What is the capital of Peru?', 'Lima'],
    ]);
    const run = async (agent: string) => {
      const body = { dataset: datasetId, target: { agent }, scorers: ['names the capital'] };
      const created = await app.request('POST', '/v1/experiments', body, { prefer: 'wait=20' });
      expect(created.body.status).toBe('succeeded');
      return created.body.id as string;
    };
    const [base, head] = [await run('geographer'), await run('forgetful')];
    const compared = await app.request('GET', `/v1/experiments/compare?base=${base}&head=${head}`);
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({
      base: { id: base, agent: 'geographer' },
      head: { id: head, agent: 'forgetful' },
      scorers: [{ scorer: 'names the capital', base: 0.6667, head: 0.3333, change: -0.3333 }],
      items: { compared: 3, worse: 1, better: 0, same: 2 },
      changed: [
        {
          input: { task: 'What is the capital of Japan?' },
          base: {
            status: 'succeeded',
            output: 'The capital is Tokyo.',
            scores: [{ scorer: 'names the capital', score: 1 }],
          },
          head: { output: 'The capital is I do not know.', scores: [{ scorer: 'names the capital', score: 0 }] },
          change: -1,
        },
      ],
    });
    expectProblem(await app.request('GET', `/v1/experiments/compare?base=${base}`), 400);
    const other = await dataset([['What is the capital of France?', 'Paris']]);
    const elsewhere = await app.request(
      'POST',
      '/v1/experiments',
      { dataset: other, target: { agent: 'geographer' }, scorers: ['names the capital'] },
      { prefer: 'wait=20' },
    );
    expectProblem(await app.request('GET', `/v1/experiments/compare?base=${base}&head=${elsewhere.body.id}`), 422);
  });

  it('refuses what names nothing, and bad plans, with a clear problem', async () => {
    const datasetId = await dataset([['What is the capital of France?', 'Paris']]);
    const body = { dataset: datasetId, target: { agent: 'geographer' }, scorers: ['names the capital'] };
    const refused: Array<[Record<string, unknown>, number, string]> = [
      [{ ...body, dataset: 'dataset_01JDQC1C2D3E4F5G6H7J8K9M0N' }, 422, 'dataset'],
      [{ ...body, datasetVersion: 9 }, 422, 'datasetVersion'],
      [{ ...body, target: { agent: 'nobody' } }, 422, 'target.agent'],
      [{ ...body, scorers: ['no such scorer'] }, 422, 'scorers[0]'],
      [{ ...body, thresholds: { fast: 0.5 } }, 422, 'thresholds.fast'],
      [{ ...body, thresholds: { 'names the capital': 2 } }, 400, 'thresholds.names the capital'],
      [{ ...body, scorers: [] }, 400, 'scorers'],
      [{ ...body, concurrency: 0 }, 400, 'concurrency'],
      [{ ...body, mode: 'replayed' }, 400, 'mode'],
    ];
    for (const [request, status, path] of refused) {
      const answer = await app.request('POST', '/v1/experiments', request);
      expectProblem(answer, status);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    const workflowSet = (await app.request('POST', '/v1/datasets', { name: 'flows', target: 'workflow' })).body;
    expectProblem(await app.request('POST', '/v1/experiments', { ...body, dataset: workflowSet.id }), 422);
    expect(model.requests).toHaveLength(0);
    expectProblem(await app.request('GET', '/v1/experiments/experiment_01JDQE1C2D3E4F5G6H7J8K9M0N'), 404);
  });
});
