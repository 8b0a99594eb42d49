import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** Every error is problem+json, a 4xx for bad input, and changes nothing. */
describe.each(storeFixtures())('errors over HTTP on %s', (_store, createFixture) => {
  let fixture: StoreFixture;
  let api: TestApp;
  beforeAll(async () => {
    fixture = await createFixture();
    api = await startTestApp({ fixture });
  });
  afterAll(async () => {
    await api.close();
    await fixture.stop();
  });

  const agent = { name: 'researcher', model: 'openai/gpt-4o-mini', instructions: 'x', tools: [] };

  async function expectProblem(
    response: { status: number; headers: Headers; body: any },
    status: number,
    type: string,
  ) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toEqual(
      expect.objectContaining({
        type: `/problems/${type}`,
        title: expect.any(String),
        status,
        detail: expect.any(String),
      }),
    );
    expect(JSON.stringify(response.body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
    expect((await api.request('GET', '/v1/agents')).body.agents).toEqual([]);
  }

  it.each([
    ['an unknown field', { ...agent, colour: 'blue' }, [{ path: 'colour', message: 'is not a known field' }]],
    ['a wrong type', { ...agent, name: 42 }, [{ path: 'name', message: 'name must be a string' }]],
    ['an empty name', { ...agent, name: '   ' }, [{ path: 'name', message: 'name must not be empty' }]],
    ['a missing model', { name: 'x' }, [{ path: 'model', message: 'model is required' }]],
    [
      'a model without a provider',
      { ...agent, model: 'gpt-4o' },
      [{ path: 'model', message: expect.stringMatching(/provider\/model/) }],
    ],
    [
      'tools that are not strings',
      { ...agent, tools: ['ok', 3] },
      [{ path: 'tools', message: expect.stringMatching(/string/) }],
    ],
    [
      'null instructions',
      { ...agent, instructions: null },
      [{ path: 'instructions', message: 'instructions must be a string' }],
    ],
  ])('refuses %s with a 400 listing the field', async (_what, body, errors) => {
    const response = await api.request('POST', '/v1/agents', body);
    await expectProblem(response, 400, 'validation-error');
    expect(response.body.errors).toEqual(errors);
  });

  it('refuses a body that is not a JSON object', async () => {
    await expectProblem(await api.request('POST', '/v1/agents', [agent]), 400, 'validation-error');
    await expectProblem(await api.request('POST', '/v1/agents', '"text"'), 400, 'validation-error');
  });

  it('refuses malformed JSON', async () => {
    const response = await api.request('POST', '/v1/agents', '{"name": ');
    await expectProblem(response, 400, 'malformed-json');
  });

  it('refuses an empty JSON body', async () => {
    const response = await api.request('POST', '/v1/agents', '');
    await expectProblem(response, 400, 'malformed-json');
  });

  it('refuses a body over 1 MiB with a 413', async () => {
    const response = await api.request('POST', '/v1/agents', { ...agent, instructions: 'x'.repeat(1024 * 1024) });
    await expectProblem(response, 413, 'payload-too-large');
  });

  it('refuses a body of more than 25,000 values with a 413, before it is parsed', async () => {
    // The agent's five fields and `extra` are six values: the array brings the body to 25,001, or to 25,000.
    const body = (items: number) => JSON.stringify({ ...agent, extra: Array(items).fill(0) }).replace(/}$/, ',');
    const response = await api.request('POST', '/v1/agents', `${body(24_995)}"x":1}`);
    await expectProblem(response, 413, 'payload-too-large');
    expect(response.body.detail).toMatch(/more than 25000 values/);
    // Malformed and past the limit (its last comma counts, the missing bracket does not): the count comes first.
    await expectProblem(await api.request('POST', '/v1/agents', body(24_996)), 413, 'payload-too-large');
    // At the limit the body is parsed, and the DTO refuses the unknown field.
    await expectProblem(await api.request('POST', '/v1/agents', `${body(24_994)}"x":1}`), 400, 'validation-error');
  });

  it('refuses other media types with a 415', async () => {
    const response = await api.request('POST', '/v1/agents', JSON.stringify(agent), { 'content-type': 'text/plain' });
    await expectProblem(response, 415, 'unsupported-media-type');
  });

  it('answers an unknown route with a 404', async () => {
    const response = await api.request('GET', '/v1/nothing-here');
    await expectProblem(response, 404, 'not-found');
    expect(response.body.detail).toBe('No route GET /v1/nothing-here');
  });

  it.each([
    ['GET', '/v1/agents/wf_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'agentId'],
    ['GET', '/v1/agents/agent_123', 'agentId'],
    ['POST', '/v1/agents/not-an-id/run', 'agentId'],
    ['GET', '/v1/workflows/agent_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'workflowId'],
    ['POST', '/v1/workflows/wf_lowercase0000000000000000000/trigger', 'workflowId'],
    ['GET', '/v1/workflows/wf_01ARZ3NDEKTSV4RRFFQ69G5FAV/runs/agentrun_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'runId'],
  ])('refuses %s %s (an id with the wrong prefix or shape) with a 400 naming %s', async (method, path, param) => {
    const response = await api.request(method, path, method === 'POST' ? { task: 'x', input: {} } : undefined);
    await expectProblem(response, 400, 'validation-error');
    expect(response.body.errors).toEqual([
      { path: param, message: expect.stringMatching(/followed by a 26-character ULID/) },
    ]);
  });

  it.each([
    ['/v1/agents?limit=0', 'limit'],
    ['/v1/agents?limit=201', 'limit'],
    ['/v1/agents?limit=ten', 'limit'],
    ['/v1/agents?cursor=bm9wZQ', 'cursor'],
    ['/v1/workflows?cursor=%%%', 'cursor'],
    ['/v1/agents?sort=name', 'sort'],
    ['/v1/agents?limit=1&limit=2', 'limit'],
  ])('refuses the list query %s with a 400 naming %s', async (path, field) => {
    const response = await api.request('GET', path);
    await expectProblem(response, 400, 'validation-error');
    expect(response.body.errors).toEqual([{ path: field, message: expect.any(String) }]);
  });

  it('says what is wrong with a limit given twice', async () => {
    const response = await api.request('GET', '/v1/agents?limit=1&limit=2');
    expect(response.body.errors).toEqual([{ path: 'limit', message: 'limit must be an integer' }]);
  });

  it('sets instance to the request path', async () => {
    const response = await api.request('GET', '/v1/agents/agent_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    await expectProblem(response, 404, 'not-found');
    expect(response.body.instance).toBe('/v1/agents/agent_01ARZ3NDEKTSV4RRFFQ69G5FAV');
  });
});
