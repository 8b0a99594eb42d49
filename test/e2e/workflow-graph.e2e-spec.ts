import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { eventually } from '../support/eventually';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** Steps as a graph: branches side by side, joins, conditions, retries and time limits, on a scripted model. */
describe.each(storeFixtures())('workflow graphs on %s', (_name, createFixture) => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let fixture: StoreFixture;
  let app: TestApp;

  beforeEach(async () => {
    // An agent answers with its task in capitals; SLOW answers after 400 ms, FAIL is refused, HANG never answers.
    model = await startScriptedOpenAIServer((body) => {
      const task = lastUserMessage(body);
      if (task.includes('FAIL')) return { kind: 'error', status: 400, message: 'The model refuses' };
      if (task.includes('HANG')) return { kind: 'hang' };
      return { kind: 'text', text: task.toUpperCase(), ...(task.includes('SLOW') && { delayMs: 400 }) };
    });
    fixture = await createFixture();
    app = await startTestApp({ fixture, env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '4' } });
    for (const [name, modelId] of [
      ['worker', 'openai-compatible/m'],
      ['unconfigured', 'openai/gpt-4o-mini'],
    ]) {
      expect((await app.request('POST', '/v1/agents', { name, model: modelId })).status).toBe(201);
    }
  });
  afterEach(async () => {
    await app.close();
    await fixture.stop();
    await model.close();
  });

  async function run(steps: unknown[], input: Record<string, unknown> = {}) {
    const created = await app.request('POST', '/v1/workflows', { name: `wf ${Math.random()}`, steps });
    expect(created.status).toBe(201);
    const ran = await app.request('POST', `/v1/workflows/${created.body.id}/trigger`, { input }, { prefer: 'wait=10' });
    expect(ran.status).toBe(200);
    return ran.body;
  }

  const summary = (body: any) => body.steps.map((s: any) => [s.id, s.status, s.output]);

  it('runs two branches at the same time, and a join once both have ended', async () => {
    const ran = run(
      [
        { id: 'left', agent: 'worker', action: 'SLOW left {{input.topic}}' },
        { id: 'right', agent: 'worker', action: 'SLOW right', needs: [] },
        {
          id: 'join',
          agent: 'worker',
          action: 'join {{steps.left.output}} + {{steps.1.output}}',
          needs: ['left', 'right'],
        },
      ],
      { topic: 'x' },
    );
    // Both branches' model calls are open at once.
    await eventually(async () => expect(model.openRequests()).toBe(2));
    const body = await ran;
    expect(body.status).toBe('succeeded');
    expect(summary(body)).toEqual([
      ['left', 'succeeded', 'SLOW LEFT X'],
      ['right', 'succeeded', 'SLOW RIGHT'],
      ['join', 'succeeded', 'JOIN SLOW LEFT X + SLOW RIGHT'],
    ]);
    expect(body.steps[2].needs).toEqual(['left', 'right']);
    expect(body.output).toBe('JOIN SLOW LEFT X + SLOW RIGHT');
    // The join started after both branches ended.
    const joinStart = Date.parse(body.steps[2].startedAt);
    expect(joinStart).toBeGreaterThanOrEqual(Date.parse(body.steps[0].endedAt));
    expect(joinStart).toBeGreaterThanOrEqual(Date.parse(body.steps[1].endedAt));
    expect(model.requests).toHaveLength(3);
  });

  it('skips a step whose condition is false, and the steps that need only it; the output is the last that ran', async () => {
    const isNews = { '==': [{ var: 'input.kind' }, 'news'] };
    const steps = [
      { id: 'triage', agent: 'worker', action: 'triage' },
      { id: 'news', agent: 'worker', action: 'news', when: isNews },
      { id: 'publish', agent: 'worker', action: 'publish {{steps.news.output}}' },
      { id: 'other', agent: 'worker', action: 'other', needs: ['triage'], when: { '!': isNews } },
    ];
    const news = await run(steps, { kind: 'news' });
    expect(summary(news)).toEqual([
      ['triage', 'succeeded', 'TRIAGE'],
      ['news', 'succeeded', 'NEWS'],
      ['publish', 'succeeded', 'PUBLISH NEWS'],
      ['other', 'skipped', null],
    ]);
    expect(news.output).toBe('PUBLISH NEWS');
    const calls = model.requests.length;
    const memo = await run(steps, { kind: 'memo' });
    expect(memo.status).toBe('succeeded');
    expect(summary(memo)).toEqual([
      ['triage', 'succeeded', 'TRIAGE'],
      ['news', 'skipped', null],
      ['publish', 'skipped', null],
      ['other', 'succeeded', 'OTHER'],
    ]);
    expect(memo.output).toBe('OTHER');
    expect(model.requests.length - calls).toBe(2);
  });

  it('retries a failed attempt as a new agent run, and succeeds', async () => {
    model.enqueue({ kind: 'error', status: 400, message: 'flaky' });
    const body = await run([{ agent: 'worker', action: 'go', retry: { attempts: 3, backoffMs: 50 } }]);
    expect(body.status).toBe('succeeded');
    const [step] = body.steps;
    expect(step.attempts.map((a: any) => [a.status, a.error?.code ?? null])).toEqual([
      ['failed', 'provider_error'],
      ['succeeded', null],
    ]);
    expect(step.attempts[0].runId).not.toBe(step.attempts[1].runId);
    expect(step.agentRunId).toBe(step.attempts[1].runId);
    expect(model.requests).toHaveLength(2);
  });

  it('makes a retry that was waiting for its time after a restart', async () => {
    const { dataDir, ids, clock } = app;
    const env = { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, RUN_CONCURRENCY: '4' };
    const steps = [{ agent: 'worker', action: 'go', retry: { attempts: 2, backoffMs: 60_000 } }];
    const workflow = (await app.request('POST', '/v1/workflows', { name: 'patient', steps })).body;
    model.enqueue({ kind: 'error', status: 400, message: 'flaky' });
    const run = (await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, {})).body;
    const current = () => app.request('GET', `/v1/workflows/${workflow.id}/runs/${run.id}`);
    await eventually(async () => expect((await current()).body.steps[0].attempts).toHaveLength(2));
    await app.close();
    clock.advance(60_000);
    app = await startTestApp({ dataDir, ids, clock, fixture, env });
    await eventually(async () => expect((await current()).body.status).toBe('succeeded'));
    expect((await current()).body.steps[0].attempts.map((a: any) => a.status)).toEqual(['failed', 'succeeded']);
    expect(model.requests).toHaveLength(2);
  });

  it('fails the step after its last attempt', async () => {
    const body = await run([
      { agent: 'worker', action: 'FAIL', retry: { attempts: 3, backoffMs: 10, maxBackoffMs: 20 } },
    ]);
    expect(body.status).toBe('failed');
    expect(body.steps[0].attempts.map((a: any) => a.status)).toEqual(['failed', 'failed', 'failed']);
    expect(model.requests).toHaveLength(3);
  });

  it('does not retry what no retry can fix: a provider not configured', async () => {
    const body = await run([{ agent: 'unconfigured', action: 'go', retry: { attempts: 3, backoffMs: 10 } }]);
    expect(body.status).toBe('failed');
    expect(body.steps[0].attempts).toEqual([
      expect.objectContaining({
        status: 'failed',
        error: expect.objectContaining({ code: 'provider_not_configured' }),
      }),
    ]);
  });

  it('fails a step whose attempts take longer than its timeoutMs, and cancels its agent run', async () => {
    const steps = [{ agent: 'worker', action: 'HANG', timeoutMs: 1000, retry: { attempts: 2, backoffMs: 10 } }];
    const workflow = (await app.request('POST', '/v1/workflows', { name: 'slow', steps })).body;
    const queued = (await app.request('POST', `/v1/workflows/${workflow.id}/trigger`, {})).body;
    await eventually(async () => expect(model.openRequests()).toBe(1));
    app.clock.advance(1000);
    let body: any;
    await eventually(async () => {
      body = (await app.request('GET', `/v1/workflows/${workflow.id}/runs/${queued.id}`)).body;
      expect(body.status).toBe('failed');
    });
    expect(body.error.code).toBe('step_timeout');
    expect(body.steps[0].status).toBe('failed');
    await eventually(async () => expect(model.openRequests()).toBe(0));
  });

  it('takes the output of the step the workflow names as outputStep, until a PATCH removes it', async () => {
    const created = await app.request('POST', '/v1/workflows', {
      name: 'named output',
      outputStep: 'first',
      steps: [
        { id: 'first', agent: 'worker', action: 'one' },
        { agent: 'worker', action: 'two' },
      ],
    });
    expect(created.body.outputStep).toBe('first');
    const trigger = () => app.request('POST', `/v1/workflows/${created.body.id}/trigger`, {}, { prefer: 'wait=10' });
    expect((await trigger()).body.output).toBe('ONE');
    const patched = await app.request('PATCH', `/v1/workflows/${created.body.id}`, { outputStep: null });
    expect(patched.body.outputStep).toBeUndefined();
    expect(patched.body.version).toBe(2);
    expect((await trigger()).body.output).toBe('TWO');
    const bad = await app.request('PATCH', `/v1/workflows/${created.body.id}`, { outputStep: 'nope' });
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'outputStep']);
  });

  it('records the version each run started with', async () => {
    const created = await app.request('POST', '/v1/workflows', {
      name: 'versioned',
      steps: [{ agent: 'worker', action: 'one' }],
    });
    const first = await app.request('POST', `/v1/workflows/${created.body.id}/trigger`, {}, { prefer: 'wait=10' });
    await app.request('PATCH', `/v1/workflows/${created.body.id}`, { steps: [{ agent: 'worker', action: 'two' }] });
    const second = await app.request('POST', `/v1/workflows/${created.body.id}/trigger`, {}, { prefer: 'wait=10' });
    expect([first.body.workflowVersion, first.body.output]).toEqual([1, 'ONE']);
    expect([second.body.workflowVersion, second.body.output]).toEqual([2, 'TWO']);
  });

  it.each([
    [
      'a need that names no step',
      [
        { agent: 'worker', action: 'a' },
        { agent: 'worker', action: 'b' },
        { agent: 'worker', action: 'c', needs: ['0', 'nope'] },
      ],
      'steps[2].needs[1]',
    ],
    [
      'a cycle',
      [
        { id: 'a', agent: 'worker', action: 'a', needs: ['b'] },
        { id: 'b', agent: 'worker', action: 'b', needs: ['a'] },
      ],
      'steps[0].needs',
    ],
    [
      'a duplicate id',
      [
        { id: 'a', agent: 'worker', action: 'a' },
        { id: 'a', agent: 'worker', action: 'b' },
      ],
      'steps[1].id',
    ],
    [
      'a template naming a step not needed',
      [
        { id: 'a', agent: 'worker', action: 'a' },
        { id: 'b', agent: 'worker', action: 'b {{steps.a.output}}', needs: [] },
      ],
      'steps[1].action',
    ],
    [
      'a condition that is not JSON Logic',
      [{ agent: 'worker', action: 'a', when: { nonsense: [1] } }],
      'steps[0].when',
    ],
    ['a condition as a string', [{ agent: 'worker', action: 'a', when: 'input.x > 1' }], 'steps[0].when'],
    ['retry on an approval step', [{ approval: 'ok?', retry: { attempts: 2, backoffMs: 0 } }], 'steps[0].retry'],
    [
      'a retry without attempts',
      [{ agent: 'worker', action: 'a', retry: { backoffMs: 0 } }],
      'steps[0].retry.attempts',
    ],
  ])('refuses %s with a 400 naming the field, and records nothing', async (_what, steps, path) => {
    const refused = await app.request('POST', '/v1/workflows', { name: 'bad', steps });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect((await app.request('GET', '/v1/workflows')).body.workflows).toEqual([]);
  });
});
