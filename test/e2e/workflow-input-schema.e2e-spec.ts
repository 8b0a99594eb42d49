import { expectProblem } from '../support/problem-expectations';
import { StoreFixture, storeFixtures } from '../support/store-fixtures';
import { TestApp, startTestApp } from '../support/test-app';

/** A workflow's `inputSchema`: set at create and update, shown with each version, and checked at every trigger. */
describe.each(storeFixtures())('workflow input schemas on %s', (_name, createFixture) => {
  let fixture: StoreFixture;
  let app: TestApp;

  beforeEach(async () => {
    fixture = await createFixture();
    // Runs are only recorded here: what matters is whether a trigger is accepted.
    app = await startTestApp({ fixture, env: { RUN_EXECUTOR_ENABLED: 'false' } });
    expect((await app.request('POST', '/v1/agents', { name: 'worker', model: 'openai/gpt-4o-mini' })).status).toBe(201);
  });
  afterEach(async () => {
    await app.close();
    await fixture.stop();
  });

  const inputSchema = {
    type: 'object',
    properties: {
      topic: { type: 'string', minLength: 1 },
      user: { type: 'object', properties: { age: { type: 'integer' } } },
    },
    required: ['topic'],
  };
  const steps = [{ agent: 'worker', action: 'About {{input.topic}} for {{input.user.age}}' }];
  const runsOf = async (id: string) => (await app.request('GET', `/v1/workflows/${id}/runs`)).body.runs;

  it('keeps the schema, shows it, and refuses a trigger whose input does not match, naming each field', async () => {
    const created = await app.request('POST', '/v1/workflows', { name: 'typed', steps, inputSchema });
    expect(created.status).toBe(201);
    expect(created.body.inputSchema).toEqual(inputSchema);
    expect((await app.request('GET', `/v1/workflows/${created.body.id}`)).body.inputSchema).toEqual(inputSchema);

    const trigger = (input: unknown) => app.request('POST', `/v1/workflows/${created.body.id}/trigger`, { input });
    const missing = await trigger({});
    expectProblem(missing, 400, 'validation-error');
    expect(missing.body.errors).toEqual([{ path: 'input.topic', message: 'input.topic is required' }]);
    const wrong = await trigger({ topic: 7, user: { age: 'old' } });
    expectProblem(wrong, 400, 'validation-error');
    expect(wrong.body.errors).toEqual([
      { path: 'input.topic', message: 'input.topic must be string' },
      { path: 'input.user.age', message: 'input.user.age must be integer' },
    ]);
    // Nothing is recorded for a refused trigger.
    expect(await runsOf(created.body.id)).toEqual([]);
    expect((await app.request('GET', `/v1/workflows/${created.body.id}`)).body.lastRun).toBeNull();

    const accepted = await trigger({ topic: 'cron', user: { age: 40 } });
    expect(accepted.status).toBe(202);
    expect((await runsOf(created.body.id)).map((run: any) => run.id)).toEqual([accepted.body.id]);
  });

  it('has no schema by default, takes one by update, shows it per version, and removes it with null', async () => {
    const created = await app.request('POST', '/v1/workflows', { name: 'untyped', steps });
    expect(created.body).not.toHaveProperty('inputSchema');
    const id = created.body.id;
    expect((await app.request('POST', `/v1/workflows/${id}/trigger`, { input: {} })).status).toBe(202);

    const typed = await app.request('PATCH', `/v1/workflows/${id}`, { inputSchema });
    expect([typed.status, typed.body.version, typed.body.inputSchema]).toEqual([200, 2, inputSchema]);
    expectProblem(await app.request('POST', `/v1/workflows/${id}/trigger`, { input: {} }), 400, 'validation-error');

    // A schema in a patch is replaced whole: a property left out is gone.
    const narrower = { type: 'object', properties: { topic: { type: 'string' }, user: {} } };
    const replaced = await app.request('PATCH', `/v1/workflows/${id}`, { inputSchema: narrower });
    expect(replaced.body.inputSchema).toEqual(narrower);
    expect((await app.request('POST', `/v1/workflows/${id}/trigger`, { input: {} })).status).toBe(202);

    const removed = await app.request('PATCH', `/v1/workflows/${id}`, { inputSchema: null });
    expect([removed.body.version, 'inputSchema' in removed.body]).toEqual([4, false]);
    const versions = await Promise.all(
      [1, 2, 3, 4].map(async (v) => (await app.request('GET', `/v1/workflows/${id}?version=${v}`)).body.inputSchema),
    );
    expect(versions).toEqual([undefined, inputSchema, narrower, undefined]);
  });

  it('refuses a step whose template names an input field the schema does not declare, at create and update', async () => {
    const typo = [
      { id: 'first', agent: 'worker', action: 'About {{input.topc}}' },
      { agent: 'worker', action: 'For {{input.user.agee}} ({{input.user}}, {{input}})' },
    ];
    const refused = await app.request('POST', '/v1/workflows', { name: 'typo', steps: typo, inputSchema });
    expectProblem(refused, 400, 'validation-error');
    expect(refused.body.errors).toEqual([
      {
        path: 'steps[0].action',
        message: '{{input.topc}}: inputSchema declares no input.topc (its properties there: topic, user)',
      },
      {
        path: 'steps[1].action',
        message: '{{input.user.agee}}: inputSchema declares no input.user.agee (its properties there: age)',
      },
    ]);
    expect((await app.request('GET', '/v1/workflows')).body.workflows).toEqual([]);

    const created = await app.request('POST', '/v1/workflows', { name: 'fine', steps, inputSchema });
    const patched = await app.request('PATCH', `/v1/workflows/${created.body.id}`, { steps: typo.slice(0, 1) });
    expectProblem(patched, 400, 'validation-error');
    expect(patched.body.errors.map((e: any) => e.path)).toEqual(['steps[0].action']);
    const narrowed = await app.request('PATCH', `/v1/workflows/${created.body.id}`, {
      inputSchema: { type: 'object', properties: { user: {} } },
    });
    expect(narrowed.body.errors.map((e: any) => e.path)).toEqual(['steps[0].action']);
    expect((await app.request('GET', `/v1/workflows/${created.body.id}`)).body.version).toBe(1);
  });

  it('refuses a hostile or unusable schema as it refuses an outputSchema, naming the part', async () => {
    const cases: Array<[unknown, string, string]> = [
      [
        { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } },
        'inputSchema.properties.code.pattern',
        'invalid escape sequence',
      ],
      [{ type: 'string' }, 'inputSchema', 'must have "type": "object" at its root'],
      [{ type: 'object', properties: { x: { type: 'nope' } } }, 'inputSchema', 'is not a valid JSON Schema'],
      ['{"type":"object"}', 'inputSchema', 'inputSchema must be a JSON Schema object'],
    ];
    for (const [schema, path, message] of cases) {
      const refused = await app.request('POST', '/v1/workflows', { name: 'hostile', steps, inputSchema: schema });
      expectProblem(refused, 400, 'validation-error');
      expect(refused.body.errors).toEqual([{ path, message: expect.stringContaining(message) }]);
    }
    const created = await app.request('POST', '/v1/workflows', { name: 'fine', steps });
    const patched = await app.request('PATCH', `/v1/workflows/${created.body.id}`, { inputSchema: cases[0][0] });
    expectProblem(patched, 400, 'validation-error');
    expect(patched.body.errors[0].path).toBe('inputSchema.properties.code.pattern');
    expect((await app.request('GET', '/v1/workflows')).body.workflows).toHaveLength(1);
  });
});
