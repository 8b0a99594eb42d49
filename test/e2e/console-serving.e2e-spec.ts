import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIR } from '../../src/http/console/serve-console';
import { startTestApp, TestApp } from '../support/test-app';

/** `npm test` builds the console first (npm run build:web); these check how the service serves it. */
describe('the web console, as served', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp()));
  afterAll(() => app.close());

  it('serves index.html at / with a CSP that allows nothing inline, and revalidated each time', async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
  });

  it('serves the hashed assets as immutable', async () => {
    const script = readdirSync(join(CONSOLE_DIR, 'assets')).find((name) => name.endsWith('.js'))!;
    const response = await fetch(`${app.url}/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  it('leaves the API, health and docs as they were: an unknown /v1 route is still a problem+json 404', async () => {
    const unknown = await fetch(`${app.url}/v1/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    for (const path of ['/assets/missing.js', '/docs/LICENSE', '/nothing']) {
      const missing = await fetch(`${app.url}${path}`);
      expect([path, missing.status, missing.headers.get('content-type')]).toEqual([
        path,
        404,
        expect.stringMatching(/^application\/problem\+json/),
      ]);
    }
    expect((await app.request('GET', '/v1/agents')).status).toBe(200);
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
    expect((await fetch(`${app.url}/docs`)).status).toBe(200);
  });
});
