import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Logger } from '@nestjs/common';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { expectProblem } from '../support/problem-expectations';
import { RawClient } from '../support/raw-http';
import { TestApp, startTestApp, temporaryDataDir } from '../support/test-app';

/** The defects of issue 9, each a case of its own: bad input, Fastify's and Node's own errors, time limits. */
describe('robustness over HTTP', () => {
  let api: TestApp;
  let agentId: string;
  let workflowId: string;
  beforeAll(async () => {
    api = await startTestApp({ http: { requestTimeoutMs: 400 } });
    agentId = (await api.request('POST', '/v1/agents', { name: 'worker', model: 'ollama/llama3.2' })).body.id;
    workflowId = (await api.request('POST', '/v1/workflows', { name: 'w', steps: [{ agent: 'worker', action: 'go' }] }))
      .body.id;
  });
  afterAll(() => api.close());

  const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  describe('free-form JSON (context, input)', () => {
    it.each([
      ['context', () => `/v1/agents/${agentId}/run`, (json: string) => `{"task":"t","context":${json}}`],
      ['input', () => `/v1/workflows/${workflowId}/trigger`, (json: string) => `{"input":${json}}`],
    ])('refuses %s nested 5,000 levels deep with a 400 stating the depth limit', async (field, path, body) => {
      const response = await api.request('POST', path(), body(nested(5000)));
      expectProblem(response, 400, 'validation-error');
      expect(response.body.errors).toEqual([
        { path: field, message: expect.stringMatching(/deeper than the limit of 64/) },
      ]);
    });

    it('refuses a JSON Merge Patch nested 20,000 levels deep (within JSON_MAX_VALUES) with the same 400, never a 500', async () => {
      const response = await api.request('PATCH', `/v1/agents/${agentId}`, `{"name":${nested(20_000)}}`, {
        'content-type': 'application/merge-patch+json',
      });
      expectProblem(response, 400, 'validation-error');
      expect(response.body.errors[0].message).toMatch(/deeper than the limit of 64/);
    });

    it('accepts free-form JSON up to the depth limit', async () => {
      const response = await api.request('POST', `/v1/workflows/${workflowId}/trigger`, `{"input":${nested(62)}}`);
      expect(response.status).toBe(202);
    });

    const awkward = {
      topic: 'cron',
      toString: 'x',
      constructor: { prototype: { valueOf: 1 } },
      nested: [{ hasOwnProperty: true, toString: null, valueOf: 'v' }],
      prototype: 'p',
    };

    it('stores context with keys such as constructor, prototype, toString exactly as sent', async () => {
      const run = await api.request('POST', `/v1/agents/${agentId}/run`, { task: 't', context: awkward });
      expect(run.status).toBe(202);
      expect(run.body.context).toEqual(awkward);
      const read = await api.request('GET', `/v1/agents/${agentId}/runs/${run.body.id}`);
      expect(read.body.context).toEqual(awkward);
    });

    it('stores input with keys such as constructor, prototype, toString exactly as sent', async () => {
      const run = await api.request('POST', `/v1/workflows/${workflowId}/trigger`, { input: awkward });
      expect(run.status).toBe(202);
      const read = await api.request('GET', `/v1/workflows/${workflowId}/runs/${run.body.id}`);
      expect(read.body.input).toEqual(awkward);
    });

    it('refuses a __proto__ key with a message that says so', async () => {
      const response = await api.request(
        'POST',
        `/v1/agents/${agentId}/run`,
        '{"task":"t","context":{"a":{"__proto__":{"x":1}}}}',
      );
      expectProblem(response, 400, 'validation-error');
      expect(response.body.errors).toEqual([
        { path: 'context.a.__proto__', message: 'the key "__proto__" is not allowed' },
      ]);
    });
  });

  it('refuses an application/x-www-form-urlencoded body with a 415', async () => {
    const response = await api.request('POST', '/v1/agents', 'name=formed&model=a%2Fb', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expectProblem(response, 415, 'unsupported-media-type');
    expect((await api.request('GET', '/v1/agents')).body.agents.map((a: { name: string }) => a.name)).not.toContain(
      'formed',
    );
  });

  it('answers a path parameter over the router limit with a problem+json 414', async () => {
    const response = await api.request('GET', `/v1/agents/agent_${'A'.repeat(200)}`);
    expectProblem(response, 414, 'uri-too-long');
  });

  it('answers a huge query string with a problem+json 431', async () => {
    const client = await RawClient.open(api.url);
    client.write(`GET /v1/agents?cursor=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: test\r\n\r\n`);
    const [response] = await client.responses();
    expectProblem(response, 431, 'request-header-fields-too-large');
  });

  it('answers an HTTP/1.0 POST without a length, and what follows it, with problem+json', async () => {
    const client = await RawClient.open(api.url);
    client.write('POST /v1/agents HTTP/1.0\r\nContent-Type: application/json\r\n\r\n{"name":"x","model":"a/b"}');
    const responses = await client.responses();
    expect(responses.length).toBeGreaterThan(0);
    for (const response of responses) expectProblem(response, 400);
  });

  it('answers a request that is not HTTP with a problem+json 400', async () => {
    const client = await RawClient.open(api.url);
    client.write('HELLO THERE\r\n\r\n');
    const [response] = await client.responses();
    expectProblem(response, 400, 'bad-request');
  });

  it('times out a client that sends its body slowly with a problem+json 408 and closes the connection', async () => {
    const client = await RawClient.open(api.url);
    const started = Date.now();
    client.write(
      'POST /v1/agents HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    const [response] = await client.responses(3000);
    expect(Date.now() - started).toBeLessThan(2000);
    expectProblem(response, 408, 'request-timeout');
    expect(client.isClosed).toBe(true);
  });

  it('does not log a client that goes away mid-request as an error', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error');
    try {
      const clients = await Promise.all(Array.from({ length: 20 }, () => RawClient.open(api.url)));
      for (const client of clients) {
        client.write(
          'POST /v1/agents HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const client of clients) client.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors).not.toHaveBeenCalled();
      expect((await api.request('GET', '/v1/agents')).status).toBe(200);
    } finally {
      errors.mockRestore();
    }
  });

  describe('names', () => {
    it('refuses a name with a lone surrogate rather than storing something else', async () => {
      const response = await api.request('POST', '/v1/agents', '{"name":"bad \\ud800 name","model":"a/b"}');
      expectProblem(response, 400, 'validation-error');
      expect(response.body.errors).toEqual([{ path: 'name', message: expect.stringMatching(/lone UTF-16 surrogate/) }]);
    });

    it('compares names in Unicode NFC: café composed and decomposed are one name', async () => {
      const composed = await api.request('POST', '/v1/agents', { name: 'caf\u00e9', model: 'ollama/llama3.2' });
      expect(composed.status).toBe(201);
      const decomposed = await api.request('POST', '/v1/agents', { name: 'cafe\u0301', model: 'ollama/llama3.2' });
      expectProblem(decomposed, 409, 'conflict');
      const step = await api.request('POST', '/v1/workflows', {
        name: 'nfc',
        steps: [{ agent: 'cafe\u0301', action: 'go' }],
      });
      expect(step.status).toBe(201);
      expect(step.body.steps[0].agent).toBe('caf\u00e9');
    });
  });
});

describe('shutting down', () => {
  it('answers requests that arrive while shutting down with a problem+json 503 and Retry-After', async () => {
    const api = await startTestApp();
    const client = await RawClient.open(api.url);
    client.write('GET /v1/agents HTTP/1.1\r\nHost: t\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = api.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.write('\r\n');
    const [response] = await client.waitForResponses(1);
    expectProblem(response, 503, 'shutting-down');
    expect(response.headers['retry-after']).toBe('1');
    await closing;
  });

  it('bounds shutdown: a client still sending its body is cut off after SHUTDOWN_TIMEOUT_MS', async () => {
    const api = await startTestApp({ http: { requestTimeoutMs: 60_000, shutdownTimeoutMs: 200 } });
    const client = await RawClient.open(api.url);
    client.write(
      'POST /v1/agents HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await api.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await client.responses(1000);
    expect(client.isClosed).toBe(true);
  });
});

describe('store failures that are not the caller fault', () => {
  it('answers an append refused with "database is locked" with a 503 and Retry-After, not a 500', async () => {
    const dataDir = temporaryDataDir();
    const file = join(dataDir, 'events.sqlite');
    const api = await startTestApp({ dataDir, store: new SqliteEventStore({ file, busyTimeoutMs: 50 }) });
    const other = new Database(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const response = await api.request('POST', '/v1/agents', { name: 'locked out', model: 'ollama/llama3.2' });
      expectProblem(response, 503, 'store-unavailable');
      expect(response.headers.get('retry-after')).toBe('1');
    } finally {
      other.exec('ROLLBACK');
      other.close();
      await api.close();
    }
  });
});
