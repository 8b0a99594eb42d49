import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { expectProblem } from '../support/problem-expectations';

jest.setTimeout(30_000);

/**
 * Map and repeating steps over real HTTP, on the scripted model server (a stand-in for a paid model provider): an
 * agent run per item, at most `concurrency` at once, the outputs in order; a failed item under each `onItemError`;
 * the item limit; a cancelled run's items; a step repeated until its rule holds, and one that runs out of
 * iterations; and the definitions refused.
 */
describe('workflow map and repeating steps (e2e)', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;
  let mostOpen = 0;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer((body) => {
      mostOpen = Math.max(mostOpen, model.openRequests());
      const task = lastUserMessage(body);
      if (task.includes('hang')) return { kind: 'hang' };
      if (task.includes('broken')) return { kind: 'error', status: 400, message: 'The model cannot read this' };
      if (task.startsWith('Draft'))
        return { kind: 'text', text: task.startsWith('Draft 3') ? 'final' : `rough ${task}` };
      return { kind: 'text', text: `Did ${task}`, delayMs: 20 };
    });
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, WORKFLOW_MAX_MAP_ITEMS: '60' } });
    const agent = await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai-compatible/m' });
    expect(agent.status).toBe(201);
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  async function mapRun(map: Record<string, unknown>, input: Record<string, unknown>, extra = {}) {
    const workflow = await app.request('POST', '/v1/workflows', {
      name: `map ${Math.random()}`,
      steps: [
        { id: 'each', agent: 'worker', action: 'item {{index}}: {{item.name}}', map, ...extra },
        { id: 'sum', agent: 'worker', action: 'sum of {{steps.each.output}}' },
      ],
    });
    expect(workflow.status).toBe(201);
    const run = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input });
    expect(run.status).toBe(202);
    return `/v1/workflows/${workflow.body.id}/runs/${run.body.id}`;
  }

  const runAt = (path: string, status: string, ms = 15_000) =>
    eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.status).toBe(status);
      return run;
    }, ms);

  const named = (count: number, name = (i: number) => `n${i}`) => ({
    list: Array.from({ length: count }, (_, i) => ({ name: name(i) })),
  });

  it('runs 50 items at most 5 at once, and hands their outputs on in order', async () => {
    mostOpen = 0;
    const run = await runAt(await mapRun({ over: 'input.list', concurrency: 5 }, named(50)), 'succeeded');
    const expected = Array.from({ length: 50 }, (_, i) => `Did item ${i}: n${i}`);
    expect(run.steps[0]).toMatchObject({ status: 'succeeded', map: { over: 'input.list', concurrency: 5 } });
    expect(run.steps[0].outputObject).toEqual(expected);
    expect(run.steps[0].items).toHaveLength(50);
    expect(run.steps[0].items[7]).toMatchObject({
      index: 7,
      status: 'succeeded',
      task: 'item 7: n7',
      output: 'Did item 7: n7',
      agentRunId: expect.stringMatching(/^agentrun_/),
    });
    expect(run.output).toBe(`Did sum of ${JSON.stringify(expected)}`);
    expect(mostOpen).toBeLessThanOrEqual(5);
    expect(mostOpen).toBeGreaterThan(1);
    // Each item's agent run belongs to the workflow run, at the map step.
    const agentRun = await app.request('GET', `/v1/agents/${await agentId()}/runs/${run.steps[0].items[7].agentRunId}`);
    expect(agentRun.body).toMatchObject({ task: 'item 7: n7', workflowRunId: run.id, stepIndex: 0 });
  });

  const agentId = async () => (await app.request('GET', '/v1/agents?limit=1')).body.agents[0].id as string;

  it('fails at a failed item by default, and leaves null in its place with onItemError skip', async () => {
    const input = named(3, (i) => (i === 1 ? 'broken' : `n${i}`));
    const failed = await runAt(await mapRun({ over: 'input.list' }, input), 'failed');
    expect(failed.error).toMatchObject({ code: 'map_item_failed', message: expect.stringContaining('item 1') });
    expect(failed.steps[0].items.map((item: { status: string }) => item.status)).toEqual([
      'succeeded',
      'failed',
      'skipped',
    ]);

    const skipped = await runAt(await mapRun({ over: 'input.list' }, input, { onItemError: 'skip' }), 'succeeded');
    expect(skipped.steps[0].outputObject).toEqual(['Did item 0: n0', null, 'Did item 2: n2']);
  });

  it('fails a list over WORKFLOW_MAX_MAP_ITEMS, naming its length, and a path that is not a list', async () => {
    const tooLong = await runAt(await mapRun({ over: 'input.list' }, named(61)), 'failed');
    expect(tooLong.error).toEqual({
      code: 'map_too_many_items',
      message: 'Step "each": map.over (input.list) gave 61 items, more than the limit of 60 (WORKFLOW_MAX_MAP_ITEMS)',
    });
    const notAList = await runAt(await mapRun({ over: 'input.list' }, { list: { a: 1 } }), 'failed');
    expect(notAList.error.code).toBe('map_not_a_list');
  });

  it('cancels the agent runs of the items still running when the run is cancelled', async () => {
    const path = await mapRun(
      { over: 'input.list', concurrency: 2 },
      named(4, () => 'hang'),
    );
    const running = await eventually(async () => {
      const run = (await app.request('GET', path)).body;
      expect(run.steps[0].items.filter((item: { status: string }) => item.status === 'running')).toHaveLength(2);
      return run;
    });
    expect((await app.request('POST', `${path}/cancel`)).status).toBe(200);
    const cancelled = await runAt(path, 'cancelled');
    expect(cancelled.steps[0].items.map((item: { status: string }) => item.status)).toEqual([
      'cancelled',
      'cancelled',
      'skipped',
      'skipped',
    ]);
    const id = await agentId();
    for (const item of running.steps[0].items.slice(0, 2)) {
      await eventually(async () =>
        expect((await app.request('GET', `/v1/agents/${id}/runs/${item.agentRunId}`)).body.status).toBe('cancelled'),
      );
    }
  });

  async function repeatRun(repeat: Record<string, unknown>) {
    const action = 'Draft {{iteration}} after [{{previous.output}}]';
    const steps = [{ id: 'draft', agent: 'worker', action, repeat }];
    const workflow = await app.request('POST', '/v1/workflows', { name: `repeat ${Math.random()}`, steps });
    expect(workflow.status).toBe(201);
    const run = await app.request('POST', `/v1/workflows/${workflow.body.id}/trigger`, { input: {} });
    return `/v1/workflows/${workflow.body.id}/runs/${run.body.id}`;
  }

  it('repeats a step with its previous answer until its rule holds', async () => {
    const until = { in: ['final', { var: 'output' }] };
    const run = await runAt(await repeatRun({ until, max: 5 }), 'succeeded');
    expect(run.output).toBe('final');
    expect(run.steps[0]).toMatchObject({
      repeat: { until, max: 5 },
      task: 'Draft 3 after [rough Draft 2 after [rough Draft 1 after []]]',
    });
    expect(run.steps[0].attempts.map((attempt: { output: string }) => attempt.output)).toEqual([
      'rough Draft 1 after []',
      'rough Draft 2 after [rough Draft 1 after []]',
      'final',
    ]);
  });

  it('fails a repeating step with repeat_exhausted after max iterations', async () => {
    const run = await runAt(await repeatRun({ until: { '==': [{ var: 'output' }, 'never'] }, max: 2 }), 'failed');
    expect(run.error).toEqual({
      code: 'repeat_exhausted',
      message: 'Step "draft" ran 2 times, its repeat.max, and its until rule never held',
    });
    expect(run.steps[0].attempts).toHaveLength(2);
  });

  it.each([
    [{ wait: { signal: 's' }, map: { over: 'input.list' } }, 'steps[0].map', 'map is for agent steps only'],
    [{ approval: 'ok?', repeat: { until: true, max: 2 } }, 'steps[0].repeat', 'repeat is for agent steps only'],
    [
      { agent: 'worker', action: 'a', repeat: { until: { nope: [] }, max: 2 } },
      'steps[0].repeat.until',
      '"nope" is not a JSON Logic operation',
    ],
    [{ agent: 'worker', action: 'a', repeat: { until: true, max: 0 } }, 'steps[0].repeat.max', ''],
    [
      { agent: 'worker', action: 'a', repeat: { until: true, max: 2 }, retry: { attempts: 2, backoffMs: 0 } },
      'steps[0].retry',
      'a repeating step has no retry',
    ],
    [
      { agent: 'worker', action: 'a', repeat: { until: true, max: 2 }, map: { over: 'input.l' } },
      'steps[0].repeat',
      'either maps over a list or repeats',
    ],
    [{ agent: 'worker', action: 'a', map: { over: 'list' } }, 'steps[0].map.over', 'map.over must be a path'],
    [{ agent: 'worker', action: 'a', map: { over: 'input.l', concurrency: 0 } }, 'steps[0].map.concurrency', ''],
    [{ agent: 'worker', action: 'a', onItemError: 'skip' }, 'steps[0].onItemError', 'for map steps only'],
    [
      { agent: 'worker', action: 'a', map: { over: 'input.l' }, retry: { attempts: 2, backoffMs: 0 } },
      'steps[0].retry',
      'a map step has no retry',
    ],
    [
      { agent: 'worker', action: 'a', map: { over: 'steps.later.outputObject.names' } },
      'steps[0].map.over',
      'steps.later: step "later" is not among',
    ],
  ])('refuses the step %j with a 400 at %s', async (step, path, message) => {
    const response = await app.request('POST', '/v1/workflows', {
      name: 'refused',
      steps: [step, { id: 'later', agent: 'worker', action: 'b' }],
    });
    expectProblem(response, 400);
    const error = response.body.errors.find((e: { path: string }) => e.path === path);
    expect(error?.message).toContain(message);
  });
});
