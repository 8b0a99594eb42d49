import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  lastUserMessage,
  startScriptedOpenAIServer,
  systemMessage,
  toolResults,
} from '../support/scripted-model-server';
import { CountingSite, startCountingSite } from '../support/counting-site';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Experiments on a workflow dataset, over real HTTP on the embedded store: each item a run of the workflow with the
 * item as its input, at a pinned version, with a change of its steps that is never saved, and in `recorded` mode
 * each step given back the tool results of the same step of the run the item was made from. The model is a scripted
 * OpenAI-compatible server (for a paid provider); the tool is the real `http_get` against a site in this process.
 */
describe('experiments on workflows', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let site: CountingSite;
  let app: TestApp;
  let workflowId: string;
  let datasetId: string;
  /** The source runs the dataset's items were made from. */
  const sources: string[] = [];

  beforeAll(async () => {
    site = await startCountingSite();
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body);
      if (body.model === 'fetch') {
        if (hasToolResult(body)) return { kind: 'text', text: `Read: ${String(toolResults(body)[0].content)}` };
        const country = /France/.test(task) ? 'france' : 'peru';
        return { kind: 'toolCalls', calls: [{ name: 'http_get', arguments: { url: `${site.url}/${country}` } }] };
      }
      return { kind: 'text', text: `[${systemMessage(body)}] ${task}` };
    });
    app = await startTestApp({
      env: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        HTTP_TOOL_ALLOWED_HOSTS: new URL(site.url).host,
        RATE_LIMIT: '0',
        MODEL_MAX_RETRIES: '0',
      },
    });
    await app.request('POST', '/v1/scorers', { name: 'read it', type: 'contains' });
    await app.request('POST', '/v1/agents', { name: 'fetcher', model: 'openai-compatible/fetch', tools: ['http_get'] });
    await app.request('POST', '/v1/agents', { name: 'writer', model: 'openai-compatible/m', instructions: 'Sum up.' });
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'research',
      steps: [
        { id: 'fetch', agent: 'fetcher', action: 'Fetch the page on {{input.country}}' },
        { id: 'write', agent: 'writer', action: 'Write: {{steps.fetch.output}}', needs: ['fetch'] },
      ],
    });
    expect(workflow.status).toBe(201);
    workflowId = workflow.body.id;
    for (const country of ['France', 'Peru']) {
      const run = await app.request(
        'POST',
        `/v1/workflows/${workflowId}/trigger`,
        { input: { country } },
        { prefer: 'wait=10' },
      );
      expect(run.body.status).toBe('succeeded');
      sources.push(run.body.id);
    }
    datasetId = (await app.request('POST', '/v1/datasets', { name: 'countries', target: 'workflow' })).body.id;
    for (const fromRunId of sources) {
      expect((await app.request('POST', `/v1/datasets/${datasetId}/items`, { fromRunId })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await app.close();
    await model.close();
    site.close();
  });
  beforeEach(() => {
    model.requests.splice(0);
    site.fetched.splice(0);
  });

  const experiment = (body: Record<string, unknown>) =>
    app.request(
      'POST',
      '/v1/experiments',
      { dataset: datasetId, scorers: ['read it'], ...body },
      { prefer: 'wait=20' },
    );
  const resultsOf = async (experimentId: string) =>
    (await app.request('GET', `/v1/experiments/${experimentId}/results`)).body.results as Array<
      Record<string, unknown> & { runId: string; output: string; scores: Array<{ score: number }> }
    >;

  it('runs each item as a run of the workflow, scored on its output, leaving the workflow as it was', async () => {
    const before = (await app.request('GET', `/v1/workflows/${workflowId}`)).body;
    const live = await experiment({ target: { workflow: 'research' }, thresholds: { 'read it': 0.9 } });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({
      status: 'succeeded',
      target: { workflow: 'research', workflowId, workflowVersion: 1, overrides: null },
      summary: { modelCalls: 6, recorded: null, passed: false },
    });
    // Each item fetched its page again, and the writer was given what it read.
    expect(site.fetched.sort()).toEqual(['/france', '/peru']);
    const results = await resultsOf(live.body.id);
    expect(results.map((result) => result.output).sort()).toEqual([
      expect.stringMatching(/^\[Sum up\.\] Write: Read: .*page \/france #[34]/),
      expect.stringMatching(/^\[Sum up\.\] Write: Read: .*page \/peru #[34]/),
    ]);
    // The expected answers are the source runs' (pages numbered 1 and 2): these pages came later, so they differ.
    expect(results.map((result) => result.scores)).toEqual([
      [{ scorer: 'read it', score: 0, reason: expect.any(String) }],
      [{ scorer: 'read it', score: 0, reason: expect.any(String) }],
    ]);
    expect(results[0]).toMatchObject({ status: 'succeeded', modelCalls: 3, runId: expect.stringMatching(/^wfrun_/) });
    const run = (await app.request('GET', `/v1/workflows/${workflowId}/runs/${results[0].runId}`)).body;
    expect(run).toMatchObject({ experimentId: live.body.id, trial: { overrides: null, recordedFrom: null } });
    // Its steps' runs belong to the experiment too (so live scoring leaves them alone).
    const fetcherId = (await app.request('GET', '/v1/agents?name=fetcher')).body.agents[0].id;
    const stepRun = (await app.request('GET', `/v1/agents/${fetcherId}/runs/${run.steps[0].agentRunId}`)).body;
    expect(stepRun).toMatchObject({ experimentId: live.body.id, trial: { recordedFrom: null } });
    // A trial is no run of production: the workflow's last run and version are as they were.
    const after = (await app.request('GET', `/v1/workflows/${workflowId}`)).body;
    expect(after).toMatchObject({ version: before.version, lastRun: before.lastRun });
  });

  it('in recorded mode gives each step back the tool results of the same step of the source run', async () => {
    const recorded = await experiment({
      target: { workflow: workflowId },
      mode: 'recorded',
      thresholds: { 'read it': 0.9 },
    });
    expect(recorded.body).toMatchObject({
      status: 'succeeded',
      summary: { recorded: { hits: 2, misses: 0 }, modelCalls: 6, passed: true },
    });
    expect(site.fetched).toEqual([]);
    const results = await resultsOf(recorded.body.id);
    // The same pages as the source runs read, so the answers are those expected.
    expect(results.map((result) => result.scores[0])).toEqual([
      expect.objectContaining({ score: 1 }),
      expect.objectContaining({ score: 1 }),
    ]);
    expect(results.map((result) => result.recorded)).toEqual([
      { hits: 1, misses: 0 },
      { hits: 1, misses: 0 },
    ]);
    const run = (await app.request('GET', `/v1/workflows/${workflowId}/runs/${results[0].runId}`)).body;
    expect(sources).toContain(run.trial.recordedFrom);
    const source = (await app.request('GET', `/v1/workflows/${workflowId}/runs/${run.trial.recordedFrom}`)).body;
    const fetcherId = (await app.request('GET', '/v1/agents?name=fetcher')).body.agents[0].id;
    const stepRun = (await app.request('GET', `/v1/agents/${fetcherId}/runs/${run.steps[0].agentRunId}`)).body;
    expect(stepRun.trial.recordedFrom).toBe(source.steps[0].agentRunId);
    expect(stepRun.toolCalls).toEqual([expect.objectContaining({ tool: 'http_get', replayed: true })]);
  });

  it('runs an earlier version, and a change of its steps that is never saved', async () => {
    const steps = [
      { id: 'fetch', agent: 'fetcher', action: 'Fetch the page on {{input.country}}' },
      { id: 'write', agent: 'writer', action: 'Tell: {{steps.fetch.output}}', needs: ['fetch'] },
    ];
    expect((await app.request('PATCH', `/v1/workflows/${workflowId}`, { steps })).status).toBe(200);
    const earlier = await experiment({ target: { workflow: 'research', version: 1 }, mode: 'recorded' });
    expect(earlier.body.target).toMatchObject({ workflowVersion: 1 });
    expect((await resultsOf(earlier.body.id)).every((result) => result.output.includes('Write: '))).toBe(true);

    const overrides = { steps: [steps[0], { ...steps[1], action: 'Shout: {{steps.fetch.output}}' }] };
    const tried = await experiment({ target: { workflow: 'research', overrides }, mode: 'recorded' });
    expect(tried.body.target).toMatchObject({ workflowVersion: 2, overrides });
    expect((await resultsOf(tried.body.id)).every((result) => result.output.includes('Shout: '))).toBe(true);
    const workflow = (await app.request('GET', `/v1/workflows/${workflowId}`)).body;
    expect(workflow).toMatchObject({ version: 2, steps: [{}, { action: 'Tell: {{steps.fetch.output}}' }] });
  });

  it('refuses targets that name nothing, both kinds or a change a PATCH would refuse, naming the field', async () => {
    const count = async () => (await app.request('GET', '/v1/experiments')).body.experiments.length;
    const before = await count();
    const step = { id: 'fetch', agent: 'nobody', action: 'Fetch' };
    const refused: Array<[Record<string, unknown>, number, string]> = [
      [{ workflow: 'research', agent: 'writer' }, 400, 'target'],
      [{}, 400, 'target'],
      [{ workflow: 'nothing' }, 422, 'target.workflow'],
      [{ agent: 'writer' }, 422, 'target.agent'],
      [{ workflow: 'research', version: 9 }, 422, 'target.version'],
      [{ workflow: 'research', overrides: { name: 'other' } }, 400, 'target.overrides.name'],
      [{ workflow: 'research', overrides: { trigger: { cron: '* * * * *' } } }, 400, 'target.overrides.trigger'],
      [{ workflow: 'research', overrides: { steps: [step] } }, 400, 'target.overrides.steps[0].agent'],
      [{ workflow: 'research', overrides: { steps: [] } }, 400, 'target.overrides.steps'],
      [{ workflow: 'research', overrides: { version: 3 } }, 400, 'target.overrides.version'],
    ];
    for (const [target, status, path] of refused) {
      const answer = await app.request('POST', '/v1/experiments', { dataset: datasetId, target, scorers: ['read it'] });
      expectProblem(answer, status);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    // Two workflows of one name: the target names one by its id.
    const twin = await app.request('POST', '/v1/workflows', {
      name: 'research',
      steps: [{ agent: 'writer', action: 'x' }],
    });
    const twice = await app.request('POST', '/v1/experiments', {
      dataset: datasetId,
      target: { workflow: 'research' },
      scorers: ['read it'],
    });
    expectProblem(twice, 422);
    expect(twice.body.detail).toContain(twin.body.id);
    expect(model.requests).toHaveLength(0);
    expect(await count()).toBe(before);
  });
});
