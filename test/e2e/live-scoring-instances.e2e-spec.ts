import { eventually } from '../support/eventually';
import { twoInstancesOnTestDouble } from '../support/two-instances';

/**
 * Live scoring on two instances of one EventStoreDB (the test double, for a server that cannot be installed here):
 * each instance's live scorer follows the log and scores every sampled run, and the runs' streams record each
 * scorer's score of a run once, whichever instance got there first.
 */
describe('live scoring on two instances of one EventStoreDB (the test double)', () => {
  const two = twoInstancesOnTestDouble(20);

  it('records each run its scorer samples once', async () => {
    const rule = { '==': [{ var: 'output' }, 'done'] };
    expect((await two.first.request('POST', '/v1/scorers', { name: 'says done', type: 'rule', rule })).status).toBe(
      201,
    );
    const scorers = [{ scorer: 'says done', sampling: 1 }];
    const agent = await two.second.request('POST', '/v1/agents', {
      name: 'doer',
      model: 'openai-compatible/m',
      scorers,
    });
    expect(agent.status).toBe(201);
    const runs = 30;
    const ids = await Promise.all(
      Array.from({ length: runs }, async (_, i) => {
        const instance = i % 2 === 0 ? two.first : two.second;
        const run = await instance.request(
          'POST',
          `/v1/agents/${agent.body.id}/run`,
          { task: `Do ${i}` },
          { prefer: 'wait=20' },
        );
        expect(run.body.status).toBe('succeeded');
        return run.body.id as string;
      }),
    );
    for (const instance of [two.first, two.second]) {
      await eventually(async () => {
        const { scores } = (await instance.request('GET', `/v1/scores?agent=${agent.body.id}`)).body;
        expect(scores).toEqual([expect.objectContaining({ scorer: 'says done', count: runs, mean: 1 })]);
      }, 15_000);
    }
    // Both instances have had their turn: a second score of any run would have been counted by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { scores } = (await two.first.request('GET', `/v1/scores?agent=${agent.body.id}`)).body;
    expect(scores[0].count).toBe(runs);
    for (const id of ids.slice(0, 5)) {
      const run = await two.second.request('GET', `/v1/agents/${agent.body.id}/runs/${id}`);
      expect(run.body.scores).toEqual([expect.objectContaining({ scorer: 'says done', score: 1 })]);
    }
  });
});
