import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * Scorers over real HTTP: each type made and tried on answers (`POST …/score`), the judge by a real run of its agent
 * against a scripted OpenAI-compatible server over HTTP (for a paid provider), which answers in the judge's shape.
 */
describe('scorers', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      if (body.model === 'broken') return { kind: 'error', status: 400, message: 'refused' };
      const asked = lastUserMessage(body);
      // The judge scores an answer that names the refund policy higher.
      const score = asked.includes('refund') ? 0.9 : 0.2;
      return { kind: 'text', text: JSON.stringify({ score, reason: `scored ${score}` }) };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', MODEL_MAX_RETRIES: '0' },
    });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });
  beforeEach(() => model.requests.splice(0));

  const create = async (body: Record<string, unknown>) => {
    const created = await app.request('POST', '/v1/scorers', body);
    expect(created.status).toBe(201);
    return created.body as { id: string; name: string };
  };
  const score = (scorerId: string, body: Record<string, unknown>) =>
    app.request('POST', `/v1/scorers/${scorerId}/score`, body);
  const scoreOf = async (scorerId: string, body: Record<string, unknown>) => {
    const answer = await score(scorerId, body);
    expect(answer.status).toBe(200);
    return answer.body as { scorer: string; score: number; reason?: string; judgeRunId?: string };
  };

  it('scores by exact and contains, with and without case', async () => {
    const exact = await create({ name: 'exact answer', type: 'exact' });
    expect(exact).toMatchObject({ type: 'exact', caseSensitive: false, status: 'active' });
    expect(await scoreOf(exact.id, { output: ' Paris ', expected: 'paris' })).toEqual({
      scorer: 'exact answer',
      score: 1,
    });
    expect((await scoreOf(exact.id, { output: 'Paris, France', expected: 'Paris' })).score).toBe(0);
    // A structured answer is compared with a structured expectation, key order aside.
    const structured = { outputObject: { b: 2, a: 1 }, output: '{"b":2,"a":1}', expected: { a: 1, b: 2 } };
    expect((await scoreOf(exact.id, structured)).score).toBe(1);
    expect((await scoreOf(exact.id, { output: 'x', expected: null })).reason).toContain('no answer is expected');

    const cased = await create({ name: 'contains, cased', type: 'contains', caseSensitive: true });
    expect((await scoreOf(cased.id, { output: 'The capital is Paris.', expected: 'Paris' })).score).toBe(1);
    expect((await scoreOf(cased.id, { output: 'the capital is paris.', expected: 'Paris' })).score).toBe(0);
  });

  it('scores by a JSON Schema and by a JSON Logic rule over the answer and its run', async () => {
    const shaped = await create({
      name: 'a title',
      type: 'json_schema',
      schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    });
    expect((await scoreOf(shaped.id, { output: '{"title": "Cron"}' })).score).toBe(1);
    const missing = await scoreOf(shaped.id, { output: '{"name": "Cron"}' });
    expect(missing).toMatchObject({ score: 0, reason: expect.stringContaining('title') });
    expect(await scoreOf(shaped.id, { output: 'not json' })).toMatchObject({
      score: 0,
      reason: 'the output is not JSON',
    });

    const calledTool = await create({
      name: 'called http_get, fast',
      type: 'rule',
      rule: {
        and: [
          { some: [{ var: 'run.toolCalls' }, { '==': [{ var: 'tool' }, 'http_get'] }] },
          { '<': [{ var: 'run.durationMs' }, 2000] },
        ],
      },
    });
    const run = { toolCalls: [{ tool: 'http_get', input: {} }], usage: null, durationMs: 800 };
    expect((await scoreOf(calledTool.id, { output: 'ok', run })).score).toBe(1);
    expect((await scoreOf(calledTool.id, { output: 'ok', run: { ...run, durationMs: 2500 } })).score).toBe(0);
    // A rule may give a score between 0 and 1 itself.
    const partial = await create({ name: 'half', type: 'rule', rule: { '/': [1, 2] } });
    expect((await scoreOf(partial.id, { output: 'ok' })).score).toBe(0.5);
  });

  it("scores by a judge agent's structured answer, in a run marked as the judge's", async () => {
    await app.request('POST', '/v1/agents', { name: 'strict judge', model: 'openai-compatible/judge' });
    const judge = await create({
      name: 'polite and on policy',
      type: 'judge',
      agent: 'strict judge',
      rubric: 'Polite; names the policy.',
    });
    const good = await scoreOf(judge.id, {
      input: { task: 'Can I get my money back?' },
      output: 'Yes: our refund policy gives you 30 days.',
      expected: 'Mentions the 30-day refund policy',
    });
    expect(good).toMatchObject({ scorer: 'polite and on policy', score: 0.9, reason: 'scored 0.9' });
    // The judge was asked with the rubric, the input, the answer and the answer expected, in its answer's shape.
    const asked = model.requests[0];
    expect(lastUserMessage(asked)).toContain('Polite; names the policy.');
    expect(lastUserMessage(asked)).toContain('30-day refund policy');
    expect(JSON.stringify(asked)).toContain('"score"');
    const judgeAgent = (await app.request('GET', '/v1/agents?name=strict')).body.agents[0];
    const judgeRun = await app.request('GET', `/v1/agents/${judgeAgent.id}/runs/${good.judgeRunId}`);
    expect(judgeRun.body).toMatchObject({ source: { protocol: 'scorer', scorerId: judge.id } });
    expect((await scoreOf(judge.id, { output: 'No.' })).score).toBe(0.2);
  });

  it('answers a judge that gives no score with a 502 naming its run', async () => {
    await app.request('POST', '/v1/agents', { name: 'broken judge', model: 'openai-compatible/broken' });
    const judge = await create({ name: 'never scores', type: 'judge', agent: 'broken judge', rubric: 'Anything.' });
    const failed = await score(judge.id, { output: 'Hello' });
    expectProblem(failed, 502, 'judge-failed');
    expect(failed.body.detail).toMatch(/The judge run agentrun_\w+ of scorer never scores gave no score/);
  });

  it('refuses bad scorers with a clear problem, and a second active scorer of a name', async () => {
    const refused: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x', type: 'regex' }, 400, 'type'],
      [{ name: 'x', type: 'json_schema' }, 400, 'schema'],
      [{ name: 'x', type: 'json_schema', schema: { type: 'nope' } }, 400, 'schema'],
      [{ name: 'x', type: 'rule', rule: { nope: [1] } }, 400, 'rule'],
      [{ name: 'x', type: 'exact', rubric: 'why' }, 400, 'rubric'],
      [{ name: 'x', type: 'judge', rubric: 'Be fair.' }, 400, 'agent'],
      [{ name: 'x', type: 'judge', agent: 'nobody', rubric: 'Be fair.' }, 422, 'agent'],
      [{ name: '', type: 'exact' }, 400, 'name'],
    ];
    for (const [body, status, path] of refused) {
      const answer = await app.request('POST', '/v1/scorers', body);
      expectProblem(answer, status);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    const first = await create({ name: 'only one', type: 'exact' });
    expectProblem(await app.request('POST', '/v1/scorers', { name: 'only one', type: 'contains' }), 409);
    // Archived, its name is free; the archived one stays, with its history.
    const archived = await app.request('POST', `/v1/scorers/${first.id}/archive`);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });
    const second = await create({ name: 'only one', type: 'contains' });
    expect(second.id).not.toBe(first.id);
    const history = await app.request('GET', `/v1/scorers/${first.id}/events`);
    expect(history.body.events.map((event: { type: string }) => event.type)).toEqual([
      'ScorerCreated',
      'ScorerArchived',
    ]);
    const listed = await app.request('GET', '/v1/scorers?status=archived');
    expect(listed.body.scorers.map((scorer: { id: string }) => scorer.id)).toContain(first.id);
    expectProblem(await score('scorer_01JDQD1C2D3E4F5G6H7J8K9M0N', { output: 'x' }), 404);
  });
});
