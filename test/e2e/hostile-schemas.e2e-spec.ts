import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

/**
 * The longest gap between the ticks of a 5 ms timer while `operation` runs: how long this process (the service runs
 * in it) could not answer anything else. A check that blocks the event loop shows as a gap as long as itself.
 */
async function longestStall<T>(operation: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await operation();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

/** `count` $defs, each an anyOf of two $refs to the next: a check of a wrong value takes 2^count steps. */
function chainOfDefs(count: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  $defs[`d${count}`] = { type: 'string' };
  return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs };
}

// A stall well under this is what a check now costs the loop; the catastrophic cases below stalled it for seconds
// (^(a+)+$ over 40 characters: hours). The margin allows for a busy test machine: 500 ms was once exceeded (562)
// by a fresh-clone CI run with the whole suite going.
const STALL_LIMIT_MS = 1000;

/** Hostile `outputSchema`s and answers: refused when given, or checked without stalling the service. */
describe('hostile output schemas', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: '{}' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, MODEL_RETRY_BASE_DELAY_MS: '1' } });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  const createAgent = (outputSchema: unknown) =>
    app.request('POST', '/v1/agents', { name: `agent ${Math.random()}`, model: 'openai-compatible/m', outputSchema });

  it('checks an answer against a catastrophic pattern at once, without stalling', async () => {
    const schema = {
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(a+)+$' } },
      propertyNames: { pattern: '^(s|ss)+$' },
    };
    const created = await createAgent(schema);
    expect(created.status).toBe(201);
    const hostile = JSON.stringify({ s: `${'a'.repeat(40)}b` });
    model.respondWith(() => ({ kind: 'text', text: hostile }));

    const { result: ran, stallMs } = await longestStall(() =>
      app.request('POST', `/v1/agents/${created.body.id}/run`, { task: 'x' }, { prefer: 'wait=10' }),
    );
    expect(ran.body).toMatchObject({
      status: 'failed',
      error: { code: 'output_invalid', errors: [{ path: '/s', message: 'must match pattern "^(a+)+$"' }] },
    });
    expect(model.requests).toHaveLength(2);
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);

    model.respondWith(() => ({ kind: 'text', text: JSON.stringify({ s: 'a'.repeat(40) }) }));
    const matching = await app.request(
      'POST',
      `/v1/agents/${created.body.id}/run`,
      { task: 'x' },
      { prefer: 'wait=10' },
    );
    expect(matching.body).toMatchObject({ status: 'succeeded', outputObject: { s: 'a'.repeat(40) } });
  });

  it('refuses a pattern the linear-time engine cannot run, naming where it is, and records nothing', async () => {
    const refused = await createAgent({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a)\\1$' } },
      patternProperties: { '^(?=x)': {} },
    });
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([
      { path: 'outputSchema.patternProperties["^(?=x)"]', message: expect.stringContaining('unsupported Perl syntax') },
      { path: 'outputSchema.properties.code.pattern', message: expect.stringContaining('invalid escape sequence') },
    ]);
    expect((await app.request('GET', '/v1/agents')).body.agents).toHaveLength(0);
  });

  it('refuses a schema whose $refs expand exponentially, at create, update and run, naming the part', async () => {
    const schema = chainOfDefs(23);
    const { result: created, stallMs } = await longestStall(() => createAgent(schema));
    expectProblem(created, 400);
    expect(created.body.errors).toEqual([
      {
        path: 'outputSchema.$defs.d11',
        message: expect.stringContaining(
          'schema nodes to check (each $ref counted as what it points to), more than 10000',
        ),
      },
    ]);
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);

    const agent = await createAgent({ type: 'object' });
    expect(agent.status).toBe(201);
    const patched = await app.request('PATCH', `/v1/agents/${agent.body.id}`, { outputSchema: schema });
    expectProblem(patched, 400);
    const run = await app.request('POST', `/v1/agents/${agent.body.id}/run`, { task: 'x', outputSchema: schema });
    expectProblem(run, 400);
    expect(run.body.errors[0].path).toBe('outputSchema.$defs.d11');
    expect((await app.request('GET', `/v1/agents/${agent.body.id}/runs`)).body.runs).toHaveLength(0);
  });

  it('checks uniqueItems over 9,000 objects without stalling, and still finds a duplicate', async () => {
    const created = await createAgent({
      type: 'object',
      properties: { list: { type: 'array', uniqueItems: true } },
    });
    const list = Array.from({ length: 9000 }, (_, i) => ({ id: i, name: `item ${i}` }));
    model.respondWith(() => ({ kind: 'text', text: JSON.stringify({ list }) }));
    const { result: ran, stallMs } = await longestStall(() =>
      app.request('POST', `/v1/agents/${created.body.id}/run`, { task: 'x' }, { prefer: 'wait=10' }),
    );
    expect(ran.body.status).toBe('succeeded');
    expect(stallMs).toBeLessThan(STALL_LIMIT_MS);

    // The same object with its keys in another order is the same item.
    const repeated = [...list, { name: 'item 5', id: 5 }];
    model.respondWith(() => ({ kind: 'text', text: JSON.stringify({ list: repeated }) }));
    const failed = await app.request('POST', `/v1/agents/${created.body.id}/run`, { task: 'x' }, { prefer: 'wait=10' });
    expect(failed.body.error).toMatchObject({
      code: 'output_invalid',
      errors: [{ path: '/list', message: 'must NOT have duplicate items (items ## 9000 and 5 are identical)' }],
    });
  });
});
