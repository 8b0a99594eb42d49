import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

describe.each(storeFixtures())('workflows over HTTP on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeEach(async () => {
    fixture = await createFixture();
    // Runs are only recorded here; their execution is tested in workflow-runs.e2e-spec.ts.
    api = await startTestApp({ fixture, env: { RUN_EXECUTOR_ENABLED: 'false' } });
    await api.request('POST', '/v1/agents', { name: 'researcher', model: 'openai/gpt-4o-mini' });
    await api.request('POST', '/v1/agents', { name: 'writer', model: 'anthropic/claude-3-5-haiku' });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  const digest = {
    name: 'daily digest',
    trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
    steps: [
      { agent: 'researcher', action: 'search' },
      { agent: 'writer', action: 'summarise' },
    ],
  };

  it('creates a scheduled workflow: 201, the whole workflow, a Location, listed at once', async () => {
    const created = await api.request('POST', '/v1/workflows', digest);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wf_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'daily digest',
      status: 'active',
      trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
      steps: digest.steps,
      overlap: 'allow',
      maxConcurrentRuns: null,
      concurrency: null,
      lastRun: null,
      latestRun: null,
      nextRunAt: '2026-03-02T08:00:00.000Z',
      version: 1,
      createdAt: api.clock.now().toISOString(),
    });
    expect(created.headers.get('location')).toBe(`/v1/workflows/${created.body.id}`);
    expect((await api.request('GET', created.headers.get('location')!)).body).toEqual(created.body);

    const list = await api.request('GET', '/v1/workflows');
    expect(list.body).toEqual({
      workflows: [
        {
          id: created.body.id,
          name: 'daily digest',
          status: 'active',
          lastRun: null,
          latestRun: null,
          nextRunAt: '2026-03-02T08:00:00.000Z',
          trigger: created.body.trigger,
          createdAt: created.body.createdAt,
        },
      ],
      nextCursor: null,
    });
  });

  it('defaults the trigger to manual and the schedule time zone to UTC', async () => {
    const manual = await api.request('POST', '/v1/workflows', { name: 'by hand', steps: digest.steps });
    expect(manual.body.trigger).toEqual({ type: 'manual' });
    const utc = await api.request('POST', '/v1/workflows', {
      ...digest,
      trigger: { type: 'schedule', cron: '*/15 * * * *' },
    });
    expect(utc.body.trigger).toEqual({ type: 'schedule', cron: '*/15 * * * *', timezone: 'UTC' });
  });

  it('refuses steps that name agents that do not exist with a 422 listing each, and creates nothing', async () => {
    const response = await api.request('POST', '/v1/workflows', {
      ...digest,
      steps: [
        { agent: 'researcher', action: 'search' },
        { agent: 'ghost', action: 'haunt' },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      type: '/problems/unprocessable',
      status: 422,
      errors: [{ path: 'steps[1].agent', message: 'no agent is named "ghost"' }],
    });
    expect((await api.request('GET', '/v1/workflows')).body.workflows).toEqual([]);
  });

  it.each([
    [{ type: 'schedule' }, 'trigger.cron', /required/],
    [{ type: 'schedule', cron: '0 9 * * 1-5 2026' }, 'trigger.cron', /exactly five fields/],
    [{ type: 'schedule', cron: '0 25 * * *' }, 'trigger.cron', /^cron has an invalid hour field "25" \(0-23\)/],
    [{ type: 'schedule', cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 'trigger.timezone', /IANA/],
    [{ type: 'manual', cron: '* * * * *' }, 'trigger.cron', /only allowed when type is "schedule"/],
    [{ type: 'webhook' }, 'trigger.type', /"schedule" or "manual"/],
    ['daily', 'trigger', /object/],
  ])('refuses the trigger %j with a 400 naming %s', async (trigger, path, message) => {
    const response = await api.request('POST', '/v1/workflows', { ...digest, trigger });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
    expect((await api.request('GET', '/v1/workflows')).body.workflows).toEqual([]);
  });

  it('refuses empty or malformed steps', async () => {
    const none = await api.request('POST', '/v1/workflows', { ...digest, steps: [] });
    expect(none.body.errors).toEqual([{ path: 'steps', message: 'steps must have at least one step' }]);
    const blank = await api.request('POST', '/v1/workflows', {
      ...digest,
      steps: [{ agent: '', action: 'x', extra: 1 }],
    });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'steps[0].agent', message: 'agent must not be empty' },
        { path: 'steps[0].extra', message: 'is not a known field' },
      ]),
    );
  });

  it('triggers a workflow: 202 with the queued run, and lastRun moves to the run time', async () => {
    const workflow = (await api.request('POST', '/v1/workflows', digest)).body;
    api.clock.advance(60_000);
    const run = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, {
      input: { topic: 'event sourcing' },
    });
    expect(run.status).toBe(202);
    expect(run.body).toEqual({
      id: expect.stringMatching(/^wfrun_[0-9A-HJKMNP-TV-Z]{26}$/),
      workflowId: workflow.id,
      status: 'queued',
      input: { topic: 'event sourcing' },
      trigger: { type: 'manual' },
      workflowVersion: 1,
      steps: [],
      output: null,
      error: null,
      createdAt: api.clock.now().toISOString(),
      startedAt: null,
      endedAt: null,
    });
    expect(run.headers.get('location')).toBe(`/v1/workflows/${workflow.id}/runs/${run.body.id}`);
    expect((await api.request('GET', run.headers.get('location')!)).body).toEqual(run.body);

    const listed = (await api.request('GET', '/v1/workflows')).body.workflows[0];
    expect(listed.lastRun).toBe(run.body.createdAt);
    expect(listed.lastRun).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await api.request('GET', `/v1/workflows/${workflow.id}/runs`)).body).toEqual({
      runs: [run.body],
      nextCursor: null,
    });
  });

  it('triggers with empty input when the body is empty', async () => {
    const workflow = (await api.request('POST', '/v1/workflows', digest)).body;
    const run = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, {});
    expect(run.status).toBe(202);
    expect(run.body.input).toEqual({});
  });

  it('refuses input that is not an object', async () => {
    const workflow = (await api.request('POST', '/v1/workflows', digest)).body;
    for (const input of [[1, 2], 'text', 42, null]) {
      const response = await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, { input });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ path: 'input', message: 'input must be an object' }]);
    }
    expect((await api.request('GET', `/v1/workflows/${workflow.id}`)).body.lastRun).toBeNull();
  });

  it('answers 404 when triggering a workflow that does not exist', async () => {
    const response = await api.request('POST', '/v1/workflows/wf_01ARZ3NDEKTSV4RRFFQ69G5FAV/trigger', { input: {} });
    expect(response.status).toBe(404);
    expect(response.body.type).toBe('/problems/not-found');
  });
});
