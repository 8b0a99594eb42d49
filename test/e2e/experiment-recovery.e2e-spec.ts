import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { ServiceProcess, startServiceProcess } from '../support/service-process';
import { request, temporaryDataDir } from '../support/test-app';
import { twoInstancesOnTestDouble } from '../support/two-instances';

/**
 * Experiments across failures and instances: a kill -9 while items run, and two instances on one EventStoreDB (the
 * test double). Each item must be run once: the scripted model (an OpenAI-compatible server over HTTP, for a paid
 * provider) counts the requests for each task.
 */
const callsByTask = (model: ScriptedServer<ChatCompletionsBody>) => {
  const counts: Record<string, number> = {};
  for (const body of model.requests) {
    const task = lastUserMessage(body).split('\n')[0];
    counts[task] = (counts[task] ?? 0) + 1;
  }
  return counts;
};

/** An agent, a scorer and a dataset of `count` tasks, made through `url`. */
async function setUp(url: string, count: number) {
  expect((await request(url, 'POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(201);
  expect((await request(url, 'POST', '/v1/scorers', { name: 'says done', type: 'contains' })).status).toBe(201);
  const dataset = (await request(url, 'POST', '/v1/datasets', { name: 'tasks', target: 'agent' })).body;
  for (let i = 0; i < count; i++) {
    const item = { input: { task: `Task number ${i}` }, expected: 'done' };
    expect((await request(url, 'POST', `/v1/datasets/${dataset.id}/items`, item)).status).toBe(201);
  }
  return { dataset: dataset.id as string, target: { agent: 'worker' }, scorers: ['says done'] };
}

describe('an experiment killed with -9 while its items run', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let service: ServiceProcess | undefined;
  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'done', delayMs: 1500 }));
  });
  afterEach(async () => {
    await service?.kill();
    await model.close();
  });

  it('finishes after the restart, and no item is run twice but those cut off', async () => {
    const dataDir = temporaryDataDir();
    // A short lease: the runs the killed process was executing end as interrupted soon after the restart.
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_LEASE_MS: '1000' };
    service = await startServiceProcess(dataDir, env);
    const plan = await setUp(service.url, 6);
    const created = await request(service.url, 'POST', '/v1/experiments', { ...plan, concurrency: 2 });
    expect(created.status).toBe(202);
    // The first two items' model calls are open: kill the process under them.
    await eventually(() => expect(model.requests).toHaveLength(2));
    await service.kill();

    service = await startServiceProcess(dataDir, env);
    const url = service.url;
    let experiment: any;
    await eventually(async () => {
      experiment = (await request(url, 'GET', `/v1/experiments/${created.body.id}`)).body;
      expect(experiment.status).toBe('succeeded');
    }, 40_000);
    expect(experiment.progress).toEqual({ total: 6, started: 6, scored: 6 });
    // The two cut off ended as interrupted (a failed run scores 0); the four after them each ran once.
    expect(experiment.summary.items).toEqual({ total: 6, succeeded: 4, failed: 2 });
    const counts = callsByTask(model);
    expect(Object.values(counts).every((count) => count === 1)).toBe(true);
    expect(Object.keys(counts)).toHaveLength(6);
  }, 90_000);
});

describe('an experiment on two instances of one EventStoreDB (the test double)', () => {
  const two = twoInstancesOnTestDouble(100);

  it('runs and scores each item once, whichever instance sees what', async () => {
    const plan = await setUp(two.first.url, 8);
    const created = await two.second.request(
      'POST',
      '/v1/experiments',
      { ...plan, concurrency: 3 },
      { prefer: 'wait=30' },
    );
    expect(created.body).toMatchObject({ status: 'succeeded', progress: { total: 8, started: 8, scored: 8 } });
    expect(created.body.summary.scorers).toEqual([{ scorer: 'says done', mean: 1, threshold: null, passed: null }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const counts = callsByTask(two.model);
    expect(Object.keys(counts)).toHaveLength(8);
    expect(Object.values(counts).every((count) => count === 1)).toBe(true);
    const history = await two.first.request('GET', `/v1/experiments/${created.body.id}/events`);
    const scored = history.body.events.filter((event: { type: string }) => event.type === 'ExperimentItemScored');
    expect(scored).toHaveLength(8);
  });

  it('runs each item of a workflow dataset as one workflow run, scored once', async () => {
    const url = two.first.url;
    await setUp(url, 0);
    const workflow = await request(url, 'POST', '/v1/workflows', {
      name: 'chores',
      steps: [{ agent: 'worker', action: '{{input.task}}' }],
    });
    expect(workflow.status).toBe(201);
    const dataset = (await request(url, 'POST', '/v1/datasets', { name: 'flows', target: 'workflow' })).body;
    for (let i = 0; i < 6; i++) {
      const item = { input: { task: `Flow task ${i}` }, expected: 'done' };
      expect((await request(url, 'POST', `/v1/datasets/${dataset.id}/items`, item)).status).toBe(201);
    }
    const created = await two.second.request(
      'POST',
      '/v1/experiments',
      { dataset: dataset.id, target: { workflow: 'chores' }, scorers: ['says done'], concurrency: 3 },
      { prefer: 'wait=30' },
    );
    expect(created.body).toMatchObject({ status: 'succeeded', progress: { total: 6, started: 6, scored: 6 } });
    expect(created.body.summary.scorers).toEqual([{ scorer: 'says done', mean: 1, threshold: null, passed: null }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const flowCalls = Object.entries(callsByTask(two.model)).filter(([task]) => task.startsWith('Flow task'));
    expect(flowCalls).toHaveLength(6);
    expect(flowCalls.every(([, count]) => count === 1)).toBe(true);
    const runs = await two.first.request('GET', `/v1/workflows/${workflow.body.id}/runs?limit=50`);
    expect(runs.body.runs).toHaveLength(6);
    expect(runs.body.runs.every((run: { experimentId?: string }) => run.experimentId === created.body.id)).toBe(true);
  });
});
