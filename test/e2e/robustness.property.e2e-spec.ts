import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { expectProblem } from '../support/problem-expectations';
import { openApiDocument } from '../../src/http/openapi/openapi';
import { Route, routeTable } from '../support/route-table';
import { TestApp, startTestApp } from '../support/test-app';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Received {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends exactly what it is given (node:http, not fetch, which would refuse or fix up some of it). */
function send(url: string, sent: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    // Node's client sends a GET's body with no length at all; a length makes it a well-formed request.
    const length = sent.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(sent.body)) };
    const headers = { ...sent.headers, ...length };
    const req = httpRequest(`${url}${sent.path}`, { method: sent.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // kept as text: the invariant check says what was wrong
        }
        resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body });
      });
    });
    req.on('error', reject);
    req.end(sent.body);
  });
}

/** The invariant: never a 5xx; every 4xx is problem+json. */
function expectHandled(sent: Sent, received: Received): void {
  const context = `${sent.method} ${sent.path.slice(0, 200)} → ${received.status}`;
  if (received.status >= 500) throw new Error(`${context}: ${JSON.stringify(received.body).slice(0, 500)}`);
  if (received.status >= 400) {
    try {
      expectProblem(received, received.status);
    } catch (error) {
      throw new Error(`${context}: not problem+json: ${(error as Error).message}`);
    }
  }
}

/** Percent-encodes any text byte by byte, so that even lone surrogates make a sendable path. */
const encodeSegment = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_~.-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');

describe('property: no route answers a 5xx, and every 4xx is problem+json', () => {
  let api: TestApp;
  let routes: Route[];
  const known: Record<string, string[]> = {};

  beforeAll(async () => {
    api = await startTestApp({ http: { requestTimeoutMs: 2000 } });
    routes = routeTable(api.app.getHttpAdapter().getInstance());
    const agent = (await api.request('POST', '/v1/agents', { name: 'prop', model: 'ollama/llama3.2' })).body;
    const workflow = (
      await api.request('POST', '/v1/workflows', { name: 'p', steps: [{ agent: 'prop', action: 'a' }] })
    ).body;
    const agentRun = (await api.request('POST', `/v1/agents/${agent.id}/run`, { task: 't' })).body;
    const workflowRun = (await api.request('POST', `/v1/workflows/${workflow.id}/trigger`, {})).body;
    known.agentId = [agent.id];
    known.workflowId = [workflow.id];
    known.runId = [agentRun.id, workflowRun.id];
  });
  afterAll(() => api.close());

  it('finds every route, each operation of the OpenAPI document among them', () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
    expect(routes).toContainEqual({ method: 'POST', path: '/v1/agents/:agentId/run' });
    const served = routes.map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    const { paths } = openApiDocument(api.app);
    for (const [path, item] of Object.entries(paths)) {
      for (const method of Object.keys(item)) expect(served).toContain(`${method.toUpperCase()} ${path}`);
    }
  });

  const segment = fc.oneof(
    fc.constantFrom(
      'agent_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'wf_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      'agentrun_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    ),
    fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', 'a'.repeat(150), '%F0%9F%98%80'),
    fc.string({ unit: 'binary', maxLength: 40 }).map(encodeSegment),
  );
  const query = fc.oneof(
    fc.constant(''),
    fc
      .array(
        fc.tuple(
          fc.constantFrom('limit', 'cursor', 'sort', 'type', '__proto__', 'limit[]'),
          fc.oneof(
            fc.constantFrom('0', '-1', '1', '200', '201', '1e3', 'ten', '', 'bm9wZQ', '%'),
            fc.string({ unit: 'binary', maxLength: 20 }).map(encodeSegment),
          ),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  );
  const awkwardKeys = ['constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];
  const jsonish = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 2 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...awkwardKeys), fc.string({ maxLength: 8 })), tie('value'), {
        maxKeys: 4,
      }),
    ),
  })).value;
  const validBodies = [
    { name: 'n', model: 'ollama/llama3.2', instructions: 'i', tools: ['t'] },
    { task: 't', context: { a: 1 } },
    { input: { topic: 'cron' } },
    { name: 'w', steps: [{ agent: 'prop', action: 'a' }], trigger: { type: 'schedule', cron: '0 9 * * 1-5' } },
  ];
  const mutatedBody = fc
    .tuple(
      fc.constantFrom(...validBodies),
      fc.constantFrom('name', 'model', 'tools', 'task', 'context', 'input', 'steps', 'trigger', 'extra'),
      jsonish,
    )
    .map(([body, key, value]) => JSON.stringify({ ...body, [key]: value }));
  const body = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...validBodies).map((b) => JSON.stringify(b)),
    mutatedBody,
    jsonish.map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '{"a":1}garbage', '\u0000', '{"name":"\\ud800","model":"a/b"}'),
  );
  const contentType = fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json-patch+json',
    '',
  );
  const extraHeaders = fc.dictionary(
    fc.constantFrom('accept', 'accept-encoding', 'x-forwarded-for', 'content-encoding', 'last-event-id', 'origin'),
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).filter((v) => /^[\x20-\x7e]*$/.test(v)),
    { maxKeys: 3 },
  );

  const requestFor = (route: Route) =>
    fc
      .record({
        method: fc.oneof(
          { weight: 4, arbitrary: fc.constant(route.method) },
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        ),
        params: fc.dictionary(fc.constantFrom('agentId', 'workflowId', 'runId'), segment),
        useKnown: fc.boolean(),
        pick: fc.nat(),
        query,
        body,
        contentType,
        extraHeaders,
      })
      .map(({ method, params, useKnown, pick, query, body, contentType, extraHeaders }): Sent => {
        const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
          useKnown && known[name] ? known[name][pick % known[name].length] : (params[name] ?? encodeSegment(name)),
        );
        const headers: Record<string, string> = { ...extraHeaders };
        if (contentType !== undefined) headers['content-type'] = contentType;
        delete headers['content-encoding'];
        return { method, path: path + query, headers, body };
      });

  it('holds for random methods, paths, query strings, headers and bodies on every route', async () => {
    const anyRequest = fc.constantFrom(...routes).chain(requestFor);
    await fc.assert(
      fc.asyncProperty(anyRequest, async (sent) => expectHandled(sent, await send(api.url, sent))),
      { numRuns: 400 },
    );
  }, 60_000);

  const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
  const json = { 'content-type': 'application/json' };
  const named: Array<[string, () => Sent]> = [
    [
      'context nested 5,000 levels',
      () => ({
        method: 'POST',
        path: `/v1/agents/${known.agentId[0]}/run`,
        headers: json,
        body: `{"task":"t","context":${nested(5000)}}`,
      }),
    ],
    [
      'input nested 5,000 levels',
      () => ({
        method: 'POST',
        path: `/v1/workflows/${known.workflowId[0]}/trigger`,
        headers: json,
        body: `{"input":${nested(5000)}}`,
      }),
    ],
    [
      'a whole body nested 100,000 levels',
      () => ({ method: 'POST', path: '/v1/agents', headers: json, body: '['.repeat(100_000) + ']'.repeat(100_000) }),
    ],
    [
      'awkward keys in context',
      () => ({
        method: 'POST',
        path: `/v1/agents/${known.agentId[0]}/run`,
        headers: json,
        body: '{"task":"t","context":{"toString":"x","constructor":{"prototype":1},"valueOf":2,"hasOwnProperty":3}}',
      }),
    ],
    [
      '__proto__ in input',
      () => ({
        method: 'POST',
        path: `/v1/workflows/${known.workflowId[0]}/trigger`,
        headers: json,
        body: '{"input":{"__proto__":{"polluted":true}}}',
      }),
    ],
    [
      'a form-urlencoded body',
      () => ({
        method: 'POST',
        path: '/v1/agents',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=x&model=a%2Fb',
      }),
    ],
    [
      'a path parameter over the router limit',
      () => ({ method: 'GET', path: `/v1/workflows/wf_${'0'.repeat(5000)}/runs`, headers: {} }),
    ],
    [
      'a name with a lone surrogate',
      () => ({ method: 'POST', path: '/v1/agents', headers: json, body: '{"name":"\\udc00","model":"a/b"}' }),
    ],
    [
      'a body over the size limit',
      () => ({
        method: 'POST',
        path: '/v1/agents',
        headers: json,
        body: JSON.stringify({ name: 'x', model: 'ollama/llama3.2', instructions: 'x'.repeat(1_100_000) }),
      }),
    ],
    ['a bad percent-encoding in the path', () => ({ method: 'GET', path: '/v1/agents/%E0%A4%A', headers: {} })],
  ];
  it.each(named)('holds for %s', async (_name, make) => {
    const sent = make();
    const received = await send(api.url, sent);
    expectHandled(sent, received);
    expect(received.status).toBeGreaterThanOrEqual(200);
  });
});
