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
 * What an experiment tries, over real HTTP on the embedded store: an earlier version of its agent, a change of its
 * definition that is never saved (`overrides`), and in `recorded` mode the tool results of the runs its items were
 * made from. The model is a scripted OpenAI-compatible server (for a paid provider); the tool is the real `http_get`
 * against a site in this process that counts what it is asked.
 */
describe('experiment trials', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let site: CountingSite;
  let app: TestApp;
  let fetcherId: string;

  /** The system message of a model request: the agent's instructions. */
  /** The page a task asks for: its country; the model `varied` asks another page for Peru. */
  const pageOf = (task: string, variedModel: boolean) => {
    const country = /France/.test(task) ? 'france' : 'peru';
    return variedModel && country === 'peru' ? 'peru-again' : country;
  };

  beforeAll(async () => {
    site = await startCountingSite();
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body);
      if (body.model === 'fetch' || body.model === 'varied') {
        if (hasToolResult(body)) return { kind: 'text', text: `Read: ${String(toolResults(body)[0].content)}` };
        const url = `${site.url}/${pageOf(task, body.model === 'varied')}`;
        return { kind: 'toolCalls', calls: [{ name: 'http_get', arguments: { url } }] };
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
    await app.request('POST', '/v1/scorers', { name: 'any answer', type: 'rule', rule: { '!!': [{ var: 'output' }] } });
    const fetcher = await app.request('POST', '/v1/agents', {
      name: 'fetcher',
      model: 'openai-compatible/fetch',
      tools: ['http_get'],
    });
    fetcherId = fetcher.body.id;
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

  async function dataset(items: Array<Record<string, unknown>>) {
    const created = (await app.request('POST', '/v1/datasets', { name: 'trials', target: 'agent' })).body;
    for (const item of items) {
      expect((await app.request('POST', `/v1/datasets/${created.id}/items`, item)).status).toBe(201);
    }
    return created.id as string;
  }

  const experiment = (body: Record<string, unknown>) =>
    app.request('POST', '/v1/experiments', { scorers: ['any answer'], ...body }, { prefer: 'wait=20' });

  it('runs an earlier version of the agent, and a change of it that is never saved', async () => {
    const writer = await app.request('POST', '/v1/agents', {
      name: 'writer',
      model: 'openai-compatible/m',
      instructions: 'Write plainly.',
    });
    await app.request('PATCH', `/v1/agents/${writer.body.id}`, { instructions: 'Write grandly.' });
    const datasetId = await dataset([{ input: { task: 'Describe Paris' } }]);

    const earlier = await experiment({ dataset: datasetId, target: { agent: 'writer', version: 1 } });
    expect(earlier.body).toMatchObject({ status: 'succeeded', target: { agentVersion: 1, overrides: null } });
    expect(model.requests.map(systemMessage)).toEqual(['Write plainly.']);

    model.requests.splice(0);
    const overrides = { instructions: 'Write in French.', maxSteps: 3 };
    const tried = await experiment({ dataset: datasetId, target: { agent: 'writer', overrides } });
    expect(tried.body).toMatchObject({ status: 'succeeded', target: { agentVersion: 2, overrides } });
    expect(model.requests.map(systemMessage)).toEqual(['Write in French.']);
    const [result] = (await app.request('GET', `/v1/experiments/${tried.body.id}/results`)).body.results;
    const run = await app.request('GET', `/v1/agents/${writer.body.id}/runs/${result.runId}`);
    expect(run.body).toMatchObject({ agentVersion: 2, trial: { overrides, recordedFrom: null } });
    expect(result.output).toBe('[Write in French.] Describe Paris');
    // The agent itself did not change.
    const agent = await app.request('GET', `/v1/agents/${writer.body.id}`);
    expect(agent.body).toMatchObject({ version: 2, instructions: 'Write grandly.', maxSteps: 10 });
  });

  it('refuses overrides a PATCH would refuse, and versions the agent never had, naming the field', async () => {
    const datasetId = await dataset([{ input: { task: 'Describe Lima' } }]);
    const target = { agent: 'fetcher' };
    const count = async () => (await app.request('GET', '/v1/experiments')).body.experiments.length;
    const before = await count();
    const refused: Array<[Record<string, unknown>, number, string]> = [
      [{ ...target, overrides: { tools: ['no_such_tool'] } }, 400, 'target.overrides.tools[0]'],
      [{ ...target, overrides: { model: 'nowhere' } }, 400, 'target.overrides.model'],
      [{ ...target, overrides: { maxSteps: 0 } }, 400, 'target.overrides.maxSteps'],
      [{ ...target, overrides: { id: 'agent_01JDQC1C2D3E4F5G6H7J8K9M0N' } }, 400, 'target.overrides.id'],
      [{ ...target, overrides: { name: 'other' } }, 400, 'target.overrides.name'],
      [{ ...target, overrides: 'shorter' }, 400, 'target.overrides'],
      [{ ...target, version: 9 }, 422, 'target.version'],
      [{ ...target, version: 0 }, 400, 'target.version'],
    ];
    for (const [request, status, path] of refused) {
      const answer = await app.request('POST', '/v1/experiments', {
        dataset: datasetId,
        target: request,
        scorers: ['any answer'],
      });
      expectProblem(answer, status);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    expect(model.requests).toHaveLength(0);
    expect(await count()).toBe(before);
  });

  it('in recorded mode gives back the tool results of the runs its items were made from, and counts misses', async () => {
    const sources: string[] = [];
    for (const task of ['Fetch the page on France', 'Fetch the page on Peru']) {
      const run = await app.request('POST', `/v1/agents/${fetcherId}/run`, { task }, { prefer: 'wait=10' });
      expect(run.body.status).toBe('succeeded');
      sources.push(run.body.id);
    }
    expect(site.fetched).toEqual(['/france', '/peru']);
    const datasetId = await dataset(sources.map((fromRunId) => ({ fromRunId })));

    // The same model makes the same calls: every result is the recorded one, and the site is asked nothing.
    site.fetched.splice(0);
    const same = await experiment({ dataset: datasetId, target: { agent: 'fetcher' }, mode: 'recorded' });
    expect(same.body).toMatchObject({
      status: 'succeeded',
      mode: 'recorded',
      summary: { recorded: { hits: 2, misses: 0 } },
    });
    expect(site.fetched).toEqual([]);
    const results = (await app.request('GET', `/v1/experiments/${same.body.id}/results`)).body.results;
    // Each answer read the page its source run read (the site numbers what it serves).
    const outputs = results.map((result: { output: string }) => result.output).sort();
    expect(outputs).toEqual([expect.stringContaining('page /france #1'), expect.stringContaining('page /peru #2')]);
    const run = await app.request('GET', `/v1/agents/${fetcherId}/runs/${results[0].runId}`);
    expect(run.body.trial.recordedFrom).toMatch(/^agentrun_/);
    expect(run.body.toolCalls).toEqual([expect.objectContaining({ tool: 'http_get', replayed: true })]);

    // Another model asks another page for Peru: that call runs the tool, and is counted as a miss.
    const varied = await experiment({
      dataset: datasetId,
      target: { agent: 'fetcher', overrides: { model: 'openai-compatible/varied' } },
      mode: 'recorded',
    });
    expect(varied.body.summary).toMatchObject({ recorded: { hits: 1, misses: 1 }, modelCalls: 4 });
    expect(site.fetched).toEqual(['/peru-again']);

    // Live mode calls every tool.
    site.fetched.splice(0);
    const live = await experiment({ dataset: datasetId, target: { agent: 'fetcher' } });
    expect(live.body.summary).toMatchObject({ recorded: null, modelCalls: 4 });
    expect(site.fetched.sort()).toEqual(['/france', '/peru']);
  });
});
