import { RawClient } from '../support/raw-http';
import { TestApp, startTestApp } from '../support/test-app';

const WRITE_KEY = 'write-key-0123456789abcdef';
const READ_KEY = 'read-key-0123456789abcdef';

describe('API keys', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ env: { API_KEYS: `${WRITE_KEY},other-key-0123456789`, API_READ_KEYS: READ_KEY } });
  });
  afterAll(() => api.close());

  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const agent = { name: 'keyed', model: 'ollama/llama3.2' };

  it('answers 401 with WWW-Authenticate to a request without a key or with an unknown one', async () => {
    const none = await api.request('GET', '/v1/agents');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="workflows"');
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    const wrong = await api.request('GET', '/v1/agents', undefined, as('not-a-key-0123456789'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await api.request('POST', '/v1/agents', agent)).status).toBe(401);
  });

  it('lets a key read and write', async () => {
    expect((await api.request('POST', '/v1/agents', agent, as(WRITE_KEY))).status).toBe(201);
    expect((await api.request('GET', '/v1/agents', undefined, as(WRITE_KEY))).body.agents).toHaveLength(1);
  });

  it('lets a read key only read: its writes are 403', async () => {
    expect((await api.request('GET', '/v1/agents', undefined, as(READ_KEY))).status).toBe(200);
    const write = await api.request('POST', '/v1/agents', { ...agent, name: 'other' }, as(READ_KEY));
    expect(write.status).toBe(403);
    expect(write.body.type).toBe('/problems/forbidden');
  });

  it('lets a read key search memory (a POST that changes nothing) but not put or delete an item', async () => {
    const path = '/v1/memory/users%2Fada/diet';
    expect((await api.request('PUT', path, { value: 'tea' }, as(WRITE_KEY))).status).toBe(200);
    expect((await api.request('PUT', path, { value: 'coffee' }, as(READ_KEY))).status).toBe(403);
    expect((await api.request('DELETE', path, undefined, as(READ_KEY))).status).toBe(403);
    const search = { namespace: 'users/ada', query: 'tea' };
    const found = await api.request('POST', '/v1/memory/search', search, as(READ_KEY));
    expect(found.body.items.map((item: any) => item.value)).toEqual(['tea']);
  });

  it('needs no key for health', async () => {
    expect((await api.request('GET', '/health')).status).toBe(200);
  });

  it('refuses a request without a key before reading its body', async () => {
    const malformed = `{"name": "${'x'.repeat(1024 * 1024 - 20)}`;
    const refused = await api.request('POST', '/v1/agents', malformed);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="workflows"');
    // The answer comes while most of the announced body has not even been sent.
    const client = await RawClient.open(api.url);
    client.write(
      'POST /v1/agents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${1024 * 1024}\r\n\r\n{"name": "`,
    );
    const [answer] = await client.waitForResponses(1, 2000);
    client.destroy();
    expect(answer).toMatchObject({ status: 401, body: { type: '/problems/unauthorized' } });
  });
});

describe('rate limits', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ env: { RATE_LIMIT: '5', RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  afterAll(() => api.close());

  it('answers 429 with Retry-After past the limit, per client', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await api.request('GET', '/v1/agents')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await api.request('GET', '/v1/workflows');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('content-type')).toContain('application/problem+json');
    expect((await api.request('GET', '/health')).status).toBe(200);
  });

  it('says the limit and what is left of it', async () => {
    const answer = await api.request('GET', '/v1/agents');
    expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  });
});

describe('rate limits on bad requests', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ env: { RATE_LIMIT: '3' } });
  });
  afterAll(() => api.close());

  it('counts requests whose body is refused', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api.request('POST', '/v1/agents', '{"name": ')).status);
    expect(statuses).toEqual([400, 400, 400]);
    expect((await api.request('GET', '/v1/agents')).status).toBe(429);
  });
});

describe.each([
  ['a number of proxies', '1'],
  ['the addresses of the proxies', '127.0.0.1,::1'],
])('rate limits behind a reverse proxy given as %s', (_, trustProxy) => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ env: { RATE_LIMIT: '2', TRUST_PROXY: trustProxy } });
  });
  afterAll(() => api.close());

  const from = (forwardedFor: string) => ({ 'x-forwarded-for': forwardedFor });

  it('counts each client named by the proxy on its own', async () => {
    const first = [];
    for (let i = 0; i < 3; i++)
      first.push((await api.request('GET', '/v1/agents', undefined, from('203.0.113.1'))).status);
    expect(first).toEqual([200, 200, 429]);
    expect((await api.request('GET', '/v1/agents', undefined, from('203.0.113.2'))).status).toBe(200);
  });

  it('is not escaped by a client that names a new address of its own with each request', async () => {
    // The proxy appends the address it saw to whatever X-Forwarded-For the client sent.
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const madeUp = `198.51.100.${i + 1}`;
      statuses.push((await api.request('GET', '/v1/agents', undefined, from(`${madeUp}, 203.0.113.3`))).status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
