import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import createClient from 'openapi-fetch';
import { openApiDocument } from '../../src/http/openapi/openapi';
import type { paths } from '../../client/api-schema';
import { routeTable } from '../support/route-table';
import { ChatCompletionsBody, ScriptedServer, startScriptedOpenAIServer } from '../support/scripted-model-server';
import { TestApp, startTestApp } from '../support/test-app';

type CreateAgentBody = paths['/v1/agents']['post']['requestBody']['content']['application/json'];

const GENERATED = join(__dirname, '..', '..', 'client', 'api-schema.ts');

/** Every route the app serves, as `METHOD /path/{param}`, but the interactive page's own files. */
function servedRoutes(app: TestApp): string[] {
  // The docs page and the web console's static files are not part of the API.
  const consoleFiles = new Set(['GET /', 'GET /index.html', 'GET /favicon.svg']);
  return routeTable(app.app.getHttpAdapter().getInstance())
    .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`)
    .filter((route) => !route.includes(' /docs') && !consoleFiles.has(route) && !route.startsWith('GET /assets/'))
    .sort();
}

describe('the OpenAPI document', () => {
  let app: TestApp;
  let model: ScriptedServer<ChatCompletionsBody>;

  beforeAll(async () => {
    model = await startScriptedOpenAIServer(() => ({ kind: 'text', text: 'Found three sources.' }));
    app = await startTestApp({ env: { OPENAI_COMPATIBLE_BASE_URL: model.baseUrl } });
  });
  afterAll(async () => {
    await app.close();
    await model.close();
  });

  it('is served at /v1/openapi.json, with an interactive page at /docs', async () => {
    const document = await app.request('GET', '/v1/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });

  it('describes every route the app serves, and no other', async () => {
    const document = (await app.request('GET', '/v1/openapi.json')).body;
    const documented = Object.entries(document.paths as Record<string, object>)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const served = servedRoutes(app);
    expect(served.length).toBeGreaterThan(15);
    expect(documented).toEqual(served.filter((route) => route !== 'GET /v1/openapi.json'));
  });

  it('gives every operation its problem answers and every write an Idempotency-Key', async () => {
    const document = (await app.request('GET', '/v1/openapi.json')).body;
    const create = document.paths['/v1/agents'].post;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '409', '415', '429', '503']),
    );
    expect(create.responses['400'].content['application/problem+json'].schema.$ref).toBe(
      '#/components/schemas/ProblemSchema',
    );
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(document.components.schemas.AgentRunSchema.properties.toolCalls.items.$ref).toBe(
      '#/components/schemas/ToolCallSchema',
    );
  });

  it('documents the rate-limit headers every limited answer carries, and Retry-After on a 429', async () => {
    const document = (await app.request('GET', '/v1/openapi.json')).body;
    const list = document.paths['/v1/agents'].get.responses;
    for (const status of ['200', '400', '401', '429']) {
      expect(Object.keys(list[status].headers)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
    expect(Object.keys(list['429'].headers)).toContain('Retry-After');
    expect(Object.keys(list)).toEqual(expect.arrayContaining(['401', '500']));
    const sent = await app.request('GET', '/v1/agents');
    for (const name of Object.keys(list['200'].headers)) expect(sent.headers.get(name)).not.toBeNull();
    expect(document.components.securitySchemes.bearer.bearerFormat).not.toMatch(/jwt/i);
  });

  it('matches the client types generated from it (npm run generate:client writes them)', async () => {
    const documentFile = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(openApiDocument(app.app)));
    const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
    // openapi-typescript with its default options, as a user would run it.
    const generated = execFileSync(process.execPath, [cli, documentFile], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const header = '// Generated from /v1/openapi.json by openapi-typescript: npm run generate:client\n';
    if (process.env.UPDATE_CLIENT) writeFileSync(GENERATED, header + generated);
    expect(readFileSync(GENERATED, 'utf8')).toBe(header + generated);
  });

  it('lets a generated client create an agent with only a name and a model', async () => {
    // Checked when the tests compile (npm run typecheck, ts-jest): the request body needs no field with a default.
    const minimal: CreateAgentBody = { name: 'minimal', model: 'openai-compatible/m' };
    const created = await createClient<paths>({ baseUrl: app.url }).POST('/v1/agents', { body: minimal });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ instructions: '', tools: [], maxSteps: 10 });
  });

  it('gives no request schema a default, which generated clients would make a required field', async () => {
    const document = (await app.request('GET', '/v1/openapi.json')).body;
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, object> }>;
    const requestSchemas = ['CreateAgentDto', 'RunAgentDto', 'CreateWorkflowDto', 'TriggerDto', 'TriggerWorkflowDto'];
    const withDefaults = requestSchemas.flatMap((name) =>
      Object.entries(schemas[name].properties ?? {})
        .filter(([, property]) => 'default' in property)
        .map(([property]) => `${name}.${property}`),
    );
    expect(withDefaults).toEqual([]);
  });

  it('lets a client generated from it do the README first session', async () => {
    const client = createClient<paths>({ baseUrl: app.url });
    const agent = await client.POST('/v1/agents', {
      body: {
        name: 'researcher',
        model: 'openai-compatible/m',
        instructions: 'Answer briefly.',
        tools: ['current_time'],
      },
    });
    expect(agent.response.status).toBe(201);
    const agentId = agent.data!.id;
    const run = await client.POST('/v1/agents/{agentId}/run', {
      params: { path: { agentId }, header: { Prefer: 'wait=10' } },
      body: { task: 'What day is it?' },
    });
    expect(run.response.status).toBe(200);
    expect(run.data).toMatchObject({ status: 'succeeded', output: 'Found three sources.' });
    for (const name of ['writer', 'editor']) {
      await client.POST('/v1/agents', { body: { name, model: 'openai-compatible/m' } });
    }
    const workflow = await client.POST('/v1/workflows', {
      body: {
        name: 'digest',
        steps: [
          { agent: 'researcher', action: 'List three facts about {{input.topic}}' },
          { agent: 'writer', action: 'Write a paragraph from these facts: {{steps.0.output}}' },
          { agent: 'editor', action: 'Shorten this to two sentences: {{steps.1.output}}' },
        ],
      },
    });
    expect(workflow.response.status).toBe(201);
    const triggered = await client.POST('/v1/workflows/{workflowId}/trigger', {
      params: { path: { workflowId: workflow.data!.id }, header: { Prefer: 'wait=10' } },
      body: { input: { topic: 'cron' } },
    });
    expect(triggered.data?.status).toBe('succeeded');
    expect(triggered.data?.steps.map(({ status }) => status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const listed = await client.GET('/v1/workflows');
    expect(listed.data?.workflows[0].lastRun).toBe(triggered.data?.createdAt);
  });
});
