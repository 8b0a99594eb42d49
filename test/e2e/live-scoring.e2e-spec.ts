import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

type Group = { agentId: string; agentName: string | null; scorer: string; day?: string; count: number; mean: number };

/**
 * Live traffic scored over real HTTP on the embedded store: an agent's `scorers` score its succeeded runs after they
 * end, each on its share of them; the scores show on the run, in `GET /v1/scores` and in `/metrics`. The model is a
 * scripted OpenAI-compatible server (for a paid provider); the judge is a real run of its agent against it.
 */
describe('live scoring', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      if (body.model === 'judge') {
        const score = lastUserMessage(body).includes('friend') ? 0.8 : 0.1;
        return { kind: 'text', text: JSON.stringify({ score, reason: `scored ${score}` }) };
      }
      return { kind: 'text', text: 'Hello there, friend.' };
    });
    app = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RATE_LIMIT: '0', MODEL_MAX_RETRIES: '0' },
    });
    const answered = { '!!': [{ var: 'output' }] };
    for (const name of ['never', 'always', 'half']) {
      expect((await app.request('POST', '/v1/scorers', { name, type: 'rule', rule: answered })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  const scores = async (query: string) => (await app.request('GET', `/v1/scores?${query}`)).body.scores as Group[];

  it('scores each run by the scorers that sample it: none at 0, every run at 1, about half at 0.5', async () => {
    const scorers = [
      { scorer: 'never', sampling: 0 },
      { scorer: 'always', sampling: 1 },
      { scorer: 'half', sampling: 0.5 },
    ];
    const agent = await app.request('POST', '/v1/agents', { name: 'greeter', model: 'openai-compatible/m', scorers });
    expect(agent.status).toBe(201);
    expect(agent.body.scorers).toEqual(scorers);
    const runs = 400;
    for (let batch = 0; batch < runs / 40; batch++) {
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          const run = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'Greet me' });
          expect(run.status).toBe(202);
        }),
      );
    }
    const byScorer = await eventually(async () => {
      const groups = await scores(`agent=${agent.body.id}`);
      expect(groups.find((group) => group.scorer === 'always')?.count).toBe(runs);
      return new Map(groups.map((group) => [group.scorer, group]));
    }, 30_000);
    expect(byScorer.has('never')).toBe(false);
    expect(byScorer.get('always')).toMatchObject({ agentName: 'greeter', count: runs, mean: 1 });
    // Binomial(400, 0.5): 200 ± 10; 160..240 is four standard deviations either side.
    const half = byScorer.get('half')!.count;
    expect(half).toBeGreaterThanOrEqual(160);
    expect(half).toBeLessThanOrEqual(240);

    // Each run shows its own scores; by day, the groups name the day they were given.
    const listed = await app.request('GET', `/v1/agents/${agent.body.id}/runs?limit=1`);
    const run = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${listed.body.runs[0].id}`);
    expect(run.body.scores).toEqual(
      expect.arrayContaining([expect.objectContaining({ scorer: 'always', score: 1, scorerId: expect.any(String) })]),
    );
    expect(run.body.scores.map((score: { scorer: string }) => score.scorer)).not.toContain('never');
    const day = (run.body.scores[0].at as string).slice(0, 10);
    expect(await scores(`agent=${agent.body.id}&scorer=always&groupBy=day`)).toEqual([
      expect.objectContaining({ scorer: 'always', day, count: runs }),
    ]);
    expect(await scores(`agent=${agent.body.id}&scorer=always&to=${day}`)).toEqual([]);

    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toContain(`run_score_count{agent="${agent.body.id}",scorer="always"} ${runs}`);
    expect(metrics).not.toContain(`scorer="never"`);
  });

  it("scores by a judge, whose own run is never scored, and leaves an experiment's items to their experiment", async () => {
    const judge = await app.request('POST', '/v1/agents', {
      name: 'judge',
      model: 'openai-compatible/judge',
      scorers: [{ scorer: 'always', sampling: 1 }],
    });
    await app.request('POST', '/v1/scorers', { name: 'kind', type: 'judge', agent: 'judge', rubric: 'Is it kind?' });
    const agent = await app.request('POST', '/v1/agents', {
      name: 'host',
      model: 'openai-compatible/m',
      scorers: [{ scorer: 'kind', sampling: 1 }],
    });
    const run = await app.request(
      'POST',
      `/v1/agents/${agent.body.id}/run`,
      { task: 'Welcome me' },
      { prefer: 'wait=10' },
    );
    expect(run.body.status).toBe('succeeded');
    const scored = await eventually(async () => {
      const got = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${run.body.id}`);
      expect(got.body.scores).toHaveLength(1);
      return got.body.scores[0];
    });
    expect(scored).toMatchObject({ scorer: 'kind', score: 0.8, reason: 'scored 0.8', judgeRunId: expect.any(String) });
    const judged = await app.request('GET', `/v1/agents/${judge.body.id}/runs/${scored.judgeRunId}`);
    expect(judged.body).toMatchObject({ status: 'succeeded', source: { protocol: 'scorer' }, scores: [] });

    // An experiment's item: scored by the experiment, not live.
    const dataset = (await app.request('POST', '/v1/datasets', { name: 'welcomes', target: 'agent' })).body;
    await app.request('POST', `/v1/datasets/${dataset.id}/items`, { input: { task: 'Welcome us' } });
    const experiment = await app.request(
      'POST',
      '/v1/experiments',
      { dataset: dataset.id, target: { agent: 'host' }, scorers: ['always'] },
      { prefer: 'wait=20' },
    );
    expect(experiment.body.status).toBe('succeeded');
    const [item] = (await app.request('GET', `/v1/experiments/${experiment.body.id}/results`)).body.results;
    // By the time the experiment scored it, the live scorer had read past its end.
    await eventually(async () => expect((await scores(`agent=${agent.body.id}`))[0]?.count).toBe(1));
    const itemRun = await app.request('GET', `/v1/agents/${agent.body.id}/runs/${item.runId}`);
    expect(itemRun.body.scores).toEqual([]);
    expect((await scores(`agent=${judge.body.id}`)).length).toBe(0);
  });

  it('refuses scorers that name nothing or sample out of 0..1, and bad windows, changing nothing', async () => {
    const bad: Array<[unknown, string]> = [
      [[{ scorer: 'nobody', sampling: 1 }], 'scorers[0].scorer'],
      [[{ scorer: 'always', sampling: 1.5 }], 'scorers[0].sampling'],
      [
        [
          { scorer: 'always', sampling: 1 },
          { scorer: 'always', sampling: 0.5 },
        ],
        'scorers[1].scorer',
      ],
      [[{ scorer: 'always' }], 'scorers[0].sampling'],
    ];
    for (const [entries, path] of bad) {
      const answer = await app.request('POST', '/v1/agents', {
        name: 'refused',
        model: 'openai-compatible/m',
        scorers: entries,
      });
      expectProblem(answer, 400);
      expect(answer.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
    expect((await app.request('GET', '/v1/agents?name=refused')).body.agents).toEqual([]);
    const greeter = (await app.request('GET', '/v1/agents?name=greeter')).body.agents[0];
    const patched = await app.request('PATCH', `/v1/agents/${greeter.id}`, {
      scorers: [{ scorer: 'gone', sampling: 1 }],
    });
    expectProblem(patched, 400);
    for (const query of ['from=2026-02-30', 'groupBy=week', 'agent=greeter', 'from=2026-12-02&to=2026-12-01']) {
      expectProblem(await app.request('GET', `/v1/scores?${query}`), 400);
    }
  });
});
