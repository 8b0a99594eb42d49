import {
  ChatCompletionsBody,
  ScriptedServer,
  lastUserMessage,
  startScriptedOpenAIServer,
} from '../support/scripted-model-server';
import { expectProblem } from '../support/problem-expectations';
import { TestApp, startTestApp } from '../support/test-app';

const SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, pages: { type: 'integer', minimum: 1 } },
  required: ['title', 'pages'],
  additionalProperties: false,
};

/** Answers in a shape: structured output against the scripted model server (a test double of a paid provider). */
describe('structured output', () => {
  let model: ScriptedServer<ChatCompletionsBody>;
  let app: TestApp;

  beforeEach(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: '{"title": "Cron", "pages": 3}' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl, MODEL_RETRY_BASE_DELAY_MS: '1' } });
  });
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function createAgent(body: Record<string, unknown> = {}): Promise<string> {
    const created = await app.request('POST', '/v1/agents', {
      name: `agent ${Math.random()}`,
      model: 'openai-compatible/m',
      ...body,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const runAndWait = (agentId: string, body: Record<string, unknown>) =>
    app.request('POST', `/v1/agents/${agentId}/run`, body, { prefer: 'wait=10' });

  it('asks for the schema in JSON-schema mode and gives the run its outputObject', async () => {
    const agentId = await createAgent({ outputSchema: SCHEMA });
    expect((await app.request('GET', `/v1/agents/${agentId}`)).body.outputSchema).toEqual(SCHEMA);
    const ran = await runAndWait(agentId, { task: 'Describe the book' });
    expect(ran.body).toMatchObject({
      status: 'succeeded',
      output: '{"title": "Cron", "pages": 3}',
      outputObject: { title: 'Cron', pages: 3 },
      outputSchema: SCHEMA,
    });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: SCHEMA } });
  });

  it('repairs an invalid answer once, showing the model the validation errors', async () => {
    model.enqueue({ kind: 'text', text: '{"title": "Cron", "pages": 0}' });
    const agentId = await createAgent({ outputSchema: SCHEMA });
    const ran = await runAndWait(agentId, { task: 'Describe the book' });
    expect(ran.body).toMatchObject({ status: 'succeeded', outputObject: { title: 'Cron', pages: 3 } });
    expect(model.requests).toHaveLength(2);
    const repair = model.requests[1];
    expect(lastUserMessage(repair)).toContain('/pages must be >= 1');
    // The repair turn holds the task and the invalid answer before it.
    const roles = repair.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair.messages[2].content).toBe('{"title": "Cron", "pages": 0}');
  });

  it('fails with output_invalid and the errors when the repair is invalid too', async () => {
    model.respondWith(() => ({ kind: 'text', text: 'Not JSON at all' }));
    model.enqueue({ kind: 'text', text: '{"title": 1}' });
    const agentId = await createAgent({ outputSchema: SCHEMA });
    const ran = await runAndWait(agentId, { task: 'Describe the book' });
    expect(ran.body.status).toBe('failed');
    expect(ran.body.outputObject).toBeNull();
    expect(ran.body.error).toMatchObject({
      code: 'output_invalid',
      errors: [{ path: '', message: expect.stringContaining('is not JSON') }],
    });
    expect(model.requests).toHaveLength(2);
    expect(lastUserMessage(model.requests[1])).toContain('/title must be string');
  });

  it("lets a run ask for its own schema instead of the agent's, and keeps free text without one", async () => {
    const agentId = await createAgent();
    const free = await runAndWait(agentId, { task: 'x' });
    expect(free.body).toMatchObject({ status: 'succeeded', outputSchema: null, outputObject: null });
    expect(model.requests[0].response_format).toBeUndefined();
    const own = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    const ran = await runAndWait(agentId, { task: 'x', outputSchema: own });
    expect(ran.body).toMatchObject({ outputSchema: own, outputObject: { title: 'Cron', pages: 3 } });
  });

  it('refuses a schema that is not a JSON Schema, or is over 64 KB, and records nothing', async () => {
    const notSchema = await app.request('POST', '/v1/agents', {
      name: 'bad',
      model: 'openai-compatible/m',
      outputSchema: { type: 'no-such-type' },
    });
    expectProblem(notSchema, 400);
    expect(notSchema.body.errors[0]).toMatchObject({
      path: 'outputSchema',
      message: expect.stringContaining('not a valid JSON Schema'),
    });
    expect((await app.request('GET', '/v1/agents')).body.agents).toHaveLength(0);

    const agentId = await createAgent();
    const huge = { type: 'object', description: 'x'.repeat(70_000) };
    const tooBig = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x', outputSchema: huge });
    expectProblem(tooBig, 400);
    expect(tooBig.body.errors[0].message).toContain('at most 65536 bytes');
    const notObject = await app.request('POST', `/v1/agents/${agentId}/run`, { task: 'x', outputSchema: 'yes' });
    expectProblem(notObject, 400);
    const notObjectRoot = await app.request('POST', `/v1/agents/${agentId}/run`, {
      task: 'x',
      outputSchema: { type: 'array' },
    });
    expectProblem(notObjectRoot, 400);
    expect(notObjectRoot.body.errors[0].message).toContain('"type": "object" at its root');
    expect((await app.request('GET', `/v1/agents/${agentId}/runs`)).body.runs).toHaveLength(0);

    const patched = await app.request('PATCH', `/v1/agents/${agentId}`, { outputSchema: { required: 'title' } });
    expectProblem(patched, 400);
    const removed = await app.request('PATCH', `/v1/agents/${agentId}`, { outputSchema: SCHEMA });
    expect(removed.body.outputSchema).toEqual(SCHEMA);
    const cleared = await app.request('PATCH', `/v1/agents/${agentId}`, { outputSchema: null });
    expect(cleared.body.outputSchema).toBeNull();
  });

  it('lets a workflow step read a field of an earlier structured answer', async () => {
    await createAgent({ name: 'cataloguer', outputSchema: SCHEMA });
    await createAgent({ name: 'writer' });
    const workflow = await app.request('POST', '/v1/workflows', {
      name: 'books',
      steps: [
        { agent: 'cataloguer', action: 'Catalogue it' },
        {
          agent: 'writer',
          action: 'Review "{{steps.0.output.title}}" ({{steps.0.output.pages}} pages): {{steps.0.output}}',
        },
      ],
    });
    expect(workflow.status).toBe(201);
    const ran = await app.request(
      'POST',
      `/v1/workflows/${workflow.body.id}/trigger`,
      { input: {} },
      { prefer: 'wait=10' },
    );
    expect(ran.body.status).toBe('succeeded');
    expect(ran.body.steps[0].outputObject).toEqual({ title: 'Cron', pages: 3 });
    const review = lastUserMessage(model.requests[1]).split('\n\nContext')[0];
    expect(review).toBe('Review "Cron" (3 pages): {"title":"Cron","pages":3}');
  });
});
