import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ExecutableTool } from '../executable-tool';
import { httpGetTool } from './http-get.tool';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('http_get', () => {
  let allowed: { server: Server; port: number };
  let other: { server: Server; port: number };
  let tool: ExecutableTool;
  const signal = new AbortController().signal;
  const get = (path: string, runSignal = signal) =>
    tool.execute({ url: `http://127.0.0.1:${allowed.port}${path}` }, { signal: runSignal });

  beforeAll(async () => {
    other = await listen((_, response) => response.end('other'));
    allowed = await listen((request, response) => {
      const path = request.url ?? '/';
      if (path === '/hello') return void response.setHeader('content-type', 'text/plain; charset=utf-8').end('héllo');
      if (path === '/hop') return void response.writeHead(302, { location: '/hello' }).end();
      if (path === '/loop') return void response.writeHead(302, { location: '/loop' }).end();
      if (path === '/away') {
        return void response.writeHead(301, { location: `http://localhost:${other.port}/` }).end();
      }
      if (path === '/big') return void response.end('x'.repeat(5000));
      if (path === '/slow') return void setTimeout(() => response.end('late'), 4000).unref();
      if (path === '/drip') {
        response.write('first part, ');
        return void setTimeout(() => response.end('the rest'), 4000).unref();
      }
      response.writeHead(404).end('no');
    });
    tool = httpGetTool({ allowedHosts: [`127.0.0.1:${allowed.port}`], maxBytes: 1000, timeoutMs: 1000 });
  });

  afterAll(() => {
    for (const { server } of [allowed, other]) {
      server.closeAllConnections();
      server.close();
    }
  });

  it('fetches from an allowed host', async () => {
    await expect(get('/hello')).resolves.toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'héllo',
      truncated: false,
    });
    await expect(get('/missing')).resolves.toMatchObject({ status: 404, body: 'no' });
  });

  it('refuses a host or a port not on the list, and schemes other than http(s)', async () => {
    const refused = (url: string) => tool.execute({ url }, { signal });
    await expect(refused(`http://localhost:${allowed.port}/hello`)).rejects.toThrow(/not an allowed host/);
    await expect(refused(`http://127.0.0.1:${other.port}/`)).rejects.toThrow(/not an allowed host/);
    await expect(refused('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(refused('not a url')).rejects.toThrow(/not an absolute URL/);
  });

  it('follows a redirect onto an allowed host, but not off the list, nor forever', async () => {
    await expect(get('/hop')).resolves.toMatchObject({ status: 200, body: 'héllo' });
    await expect(get('/away')).rejects.toThrow(`Redirect to http://localhost:${other.port}/ is not allowed`);
    await expect(get('/loop')).rejects.toThrow(/Too many redirects/);
  });

  it('cuts an oversized body at the limit', async () => {
    const result = (await get('/big')) as { body: string; truncated: boolean };
    expect(result.body).toHaveLength(1000);
    expect(result.truncated).toBe(true);
  });

  it('fails when the answer or its body takes longer than the time limit', async () => {
    await expect(get('/slow')).rejects.toThrow('http_get timed out after 1000 ms');
    await expect(get('/drip')).rejects.toThrow('http_get timed out after 1000 ms');
  });

  it('says why a connection failed', async () => {
    const closed = httpGetTool({ allowedHosts: ['127.0.0.1'], maxBytes: 1000, timeoutMs: 1000 });
    const port = other.port;
    other.server.closeAllConnections();
    await new Promise((resolve) => other.server.close(resolve));
    await expect(closed.execute({ url: `http://127.0.0.1:${port}/` }, { signal })).rejects.toThrow(
      /http_get failed: fetch failed: .*ECONNREFUSED/,
    );
  });

  it("stops when the run's signal aborts", async () => {
    const controller = new AbortController();
    const call = get('/slow', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});
