import { RawClient } from '../support/raw-http';
import { TestApp, startTestApp } from '../support/test-app';

describe('security headers and what the health routes show', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ env: { RATE_LIMIT: '1000' } })));
  afterAll(() => app.close());

  const headersOf = async (path: string, init: RequestInit = {}) => {
    const controller = new AbortController();
    const response = await fetch(`${app.url}${path}`, { ...init, signal: controller.signal });
    controller.abort(); // a stream's body is not waited for
    return { status: response.status, headers: response.headers };
  };

  it.each([
    ['JSON', '/v1/agents', {}],
    ['problem+json (404)', '/v1/agents/agent_01JDQ8ZK5N2B3C4D5E6F7G8H9J', {}],
    [
      'problem+json (400)',
      '/v1/agents',
      { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } },
    ],
    ['problem+json (414, before routing)', `/v1/agents/${'a'.repeat(200)}`, {}],
    ['server-sent events', '/v1/events', { headers: { accept: 'text/event-stream' } }],
    ['the console', '/', {}],
    ['the API description', '/v1/openapi.json', {}],
    ['the interactive API page', '/docs', {}],
    ['health', '/health', {}],
    ['metrics', '/metrics', {}],
  ])('says nosniff on %s', async (_, path, init) => {
    const { headers } = await headersOf(path, init as RequestInit);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('says nosniff on answers to broken HTTP', async () => {
    const client = await RawClient.open(app.url);
    client.write('NOT HTTP\r\n\r\n');
    const [answer] = await client.responses(2000);
    expect(answer.status).toBe(400);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives the interactive API page a Content-Security-Policy that forbids framing', async () => {
    for (const path of ['/docs', '/docs/swagger-ui-init.js']) {
      const csp = (await headersOf(path)).headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    }
  });

  it('names the kind of store on the health routes, never where its data is', async () => {
    const health = await app.request('GET', '/health');
    expect(health.body.store).toBe('sqlite');
    const ready = await app.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    for (const body of [health.body, ready.body]) {
      expect(JSON.stringify(body)).not.toContain(app.dataDir);
      expect(JSON.stringify(body)).not.toContain('events.sqlite');
    }
    expect(ready.body.details.store).toEqual({ status: 'up', kind: 'sqlite' });
  });
});
