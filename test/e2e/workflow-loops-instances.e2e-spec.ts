import { eventually } from '../support/eventually';
import { twoInstancesOnTestDouble } from '../support/two-instances';

jest.setTimeout(60_000);

/**
 * Map, repeating and workflow steps on two instances of one EventStoreDB (the test double, standing in for a server
 * that cannot be installed here): each item, each iteration and each child run is run once, whichever instance
 * takes it, and a child run opened after its trigger (EventStoreDB commits one stream at a time) still finds its
 * parent. The model is a scripted OpenAI-compatible server (for a paid provider) answering "done".
 */
describe('map, repeating and workflow steps on two instances of one EventStoreDB (the test double)', () => {
  const two = twoInstancesOnTestDouble(20);

  it('runs each item, iteration and child once, and ends the parent with the child', async () => {
    const { first, second } = two;
    expect((await first.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' })).status).toBe(
      201,
    );
    const child = await first.request('POST', '/v1/workflows', {
      name: 'child',
      steps: [
        { id: 'each', agent: 'worker', action: 'item {{item}}', map: { over: 'input.list', concurrency: 3 } },
        {
          id: 'again',
          agent: 'worker',
          action: 'pass {{iteration}}',
          repeat: { until: { '==': [{ var: 'iteration' }, 2] }, max: 3 },
        },
      ],
    });
    expect(child.status).toBe(201);
    const parent = await first.request('POST', '/v1/workflows', {
      name: 'parent',
      steps: [{ id: 'call', workflow: 'child', input: { list: '{{input.list}}' } }],
    });
    expect(parent.status).toBe(201);
    const list = ['a', 'b', 'c', 'd', 'e'];
    const run = await second.request('POST', `/v1/workflows/${parent.body.id}/trigger`, { input: { list } });
    expect(run.status).toBe(202);
    const done = await eventually(async () => {
      const now = (await first.request('GET', `/v1/workflows/${parent.body.id}/runs/${run.body.id}`)).body;
      expect(now.status).toBe('succeeded');
      return now;
    }, 30_000);
    // A string of the input that is one placeholder gives its value itself: the list stays a list.
    const childRun = (await second.request('GET', `/v1/workflows/${child.body.id}/runs/${done.steps[0].childRunId}`))
      .body;
    expect(childRun).toMatchObject({
      status: 'succeeded',
      parentRunId: run.body.id,
      input: { list },
    });
    expect(childRun.steps[0].outputObject).toEqual(list.map(() => 'done'));
    expect(childRun.steps[1].attempts).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(two.model.requests).toHaveLength(list.length + 2);
  });
});
