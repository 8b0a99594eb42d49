import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

const researcher = {
  name: 'researcher',
  model: 'openai/gpt-4o-mini',
  instructions: 'Find primary sources.',
  tools: ['current_time'],
};

describe.each(storeFixtures())('agents over HTTP on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeEach(async () => {
    fixture = await createFixture();
    // Runs are only recorded here; their execution is tested in agent-runs.e2e-spec.ts.
    api = await startTestApp({ fixture, env: { RUN_EXECUTOR_ENABLED: 'false' } });
  });
  afterEach(async () => {
    await api.close();
    await fixture.stop();
  });

  it('creates an agent: 201, the whole agent, a Location, and the list shows it at once', async () => {
    const created = await api.request('POST', '/v1/agents', researcher);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^agent_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'researcher',
      status: 'active',
      model: 'openai/gpt-4o-mini',
      instructions: 'Find primary sources.',
      tools: ['current_time'],
      maxSteps: 10,
      outputSchema: null,
      memory: { maxMessages: 50 },
      approvalRequired: [],
      fallbackModels: [],
      guardrails: {},
      handoffs: [],
      scorers: [],
      description: '',
      version: 1,
      createdAt: api.clock.now().toISOString(),
    });
    expect(created.headers.get('location')).toBe(`/v1/agents/${created.body.id}`);

    const list = await api.request('GET', '/v1/agents');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      agents: [
        {
          id: created.body.id,
          name: 'researcher',
          status: 'active',
          model: 'openai/gpt-4o-mini',
          lastRun: null,
          latestRun: null,
          createdAt: created.body.createdAt,
        },
      ],
      nextCursor: null,
    });

    const one = await api.request('GET', created.headers.get('location')!);
    expect(one.body).toEqual(created.body);
  });

  it('defaults instructions to "" and tools to []', async () => {
    const created = await api.request('POST', '/v1/agents', { name: 'bare', model: 'ollama/llama3.2' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ instructions: '', tools: [] });
  });

  it('takes a description of up to 1,000 characters, on create and PATCH', async () => {
    const made = await api.request('POST', '/v1/agents', {
      ...researcher,
      name: 'described',
      description: 'Finds sources.',
    });
    expect(made.body.description).toBe('Finds sources.');
    const tooLong = await api.request('POST', '/v1/agents', {
      ...researcher,
      name: 'long',
      description: 'x'.repeat(1001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].path).toBe('description');
    const patched = await api.request('PATCH', `/v1/agents/${made.body.id}`, { description: null });
    expect(patched.body).toMatchObject({ description: '', version: 2 });
  });

  it('keeps names unique: a second agent with the same name is a 409 and is not created', async () => {
    await api.request('POST', '/v1/agents', researcher);
    const again = await api.request('POST', '/v1/agents', { ...researcher, model: 'anthropic/claude-3-5-haiku' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(again.body).toMatchObject({
      status: 409,
      errors: [{ path: 'name', message: 'is already used by another agent' }],
    });
    expect((await api.request('GET', '/v1/agents')).body.agents).toHaveLength(1);
  });

  it('runs an agent: 202 with the queued run, a Location that answers, and the run listed', async () => {
    const agent = (await api.request('POST', '/v1/agents', researcher)).body;
    api.clock.advance(1000);
    const run = await api.request('POST', `/v1/agents/${agent.id}/run`, {
      task: 'Summarise',
      context: { url: 'https://example.com/doc' },
    });
    expect(run.status).toBe(202);
    expect(run.body).toEqual({
      id: expect.stringMatching(/^agentrun_[0-9A-HJKMNP-TV-Z]{26}$/),
      agentId: agent.id,
      agentVersion: 1,
      task: 'Summarise',
      context: { url: 'https://example.com/doc' },
      status: 'queued',
      model: 'openai/gpt-4o-mini',
      output: null,
      outputSchema: null,
      outputObject: null,
      threadId: null,
      replayOf: null,
      source: null,
      experimentId: null,
      trial: null,
      scores: [],
      pendingApprovals: [],
      toolCalls: [],
      usage: null,
      attempts: 0,
      modelAttempts: [],
      answeredModel: null,
      guardrails: [],
      parentRunId: null,
      parentToolCallId: null,
      depth: 0,
      children: [],
      waitingOn: [],
      totalUsage: null,
      handoffs: [],
      answeredBy: null,
      startAgentId: null,
      multitask: null,
      supersededBy: null,
      recalled: null,
      error: null,
      warnings: [],
      workflowRunId: null,
      stepIndex: null,
      cancelRequested: false,
      createdAt: api.clock.now().toISOString(),
      startedAt: null,
      endedAt: null,
    });
    expect(run.headers.get('location')).toBe(`/v1/agents/${agent.id}/runs/${run.body.id}`);
    expect((await api.request('GET', run.headers.get('location')!)).body).toEqual(run.body);
    expect((await api.request('GET', `/v1/agents/${agent.id}/runs`)).body).toEqual({
      runs: [run.body],
      nextCursor: null,
    });
    // The list shows when the agent last ran.
    expect((await api.request('GET', '/v1/agents')).body.agents[0].lastRun).toBe(run.body.createdAt);
  });

  it('runs with an empty context when none is given', async () => {
    const agent = (await api.request('POST', '/v1/agents', researcher)).body;
    const run = await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 'Go' });
    expect(run.status).toBe(202);
    expect(run.body.context).toEqual({});
  });

  it('answers 404 for an agent that does not exist, when reading and when running', async () => {
    const missing = 'agent_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    expect((await api.request('GET', `/v1/agents/${missing}`)).status).toBe(404);
    const run = await api.request('POST', `/v1/agents/${missing}/run`, { task: 'x' });
    expect(run.status).toBe(404);
    expect(run.body.detail).toBe(`Agent ${missing} does not exist`);
  });

  it('pages the list by id with limit and an opaque cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await api.request('POST', '/v1/agents', { ...researcher, name: `agent ${i}` })).body.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await api.request('GET', `/v1/agents?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.agents.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.agents.map((a: { id: string }) => a.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort());
  });

  it('returns at most 50 items by default', async () => {
    await Promise.all(
      Array.from({ length: 55 }, (_, i) => api.request('POST', '/v1/agents', { ...researcher, name: `a${i}` })),
    );
    const page = await api.request('GET', '/v1/agents');
    expect(page.body.agents).toHaveLength(50);
    expect(page.body.nextCursor).toEqual(expect.any(String));
    const rest = await api.request('GET', `/v1/agents?cursor=${page.body.nextCursor}`);
    expect(rest.body.agents).toHaveLength(5);
    expect(rest.body.nextCursor).toBeNull();
  });
});
