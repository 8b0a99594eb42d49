import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ExecutableTool } from '../executable-tool';
import { Resolve } from '../../shared/address-policy';
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
      if (path === '/to-internal') {
        return void response.writeHead(302, { location: `http://internal.example:${allowed.port}/hello` }).end();
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

  describe('by name', () => {
    // A name only this test knows, resolving to the loopback address (as a rebound or internal name would).
    const resolved: string[] = [];
    const resolve: Resolve = (hostname, _options, callback) => {
      resolved.push(hostname);
      if (hostname === 'internal.example') callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    };
    const byName = (allowPrivate?: boolean) =>
      httpGetTool({
        // The address itself is listed too: only a URL that names it may reach it.
        allowedHosts: [`internal.example:${allowed.port}`, `127.0.0.1:${allowed.port}`],
        allowPrivate,
        maxBytes: 1000,
        timeoutMs: 1000,
        resolve,
      });
    const fetchFrom = (tool: ExecutableTool, path: string) =>
      tool.execute({ url: `http://internal.example:${allowed.port}${path}` }, { signal });

    it('refuses an allowed name that resolves to a loopback address', async () => {
      await expect(fetchFrom(byName(), '/hello')).rejects.toThrow(
        'http_get refused: internal.example resolves to 127.0.0.1, which is a loopback address, not a public one',
      );
    });

    it('connects to the address it checked, when private addresses are allowed', async () => {
      resolved.length = 0;
      await expect(fetchFrom(byName(true), '/hello')).resolves.toMatchObject({ body: 'héllo' });
      // One lookup, answered by ours: the system resolver does not know the name.
      expect(resolved).toEqual(['internal.example']);
    });

    it('checks again on a redirect', async () => {
      const tool = httpGetTool({
        allowedHosts: [`127.0.0.1:${allowed.port}`, `internal.example:${allowed.port}`],
        maxBytes: 1000,
        timeoutMs: 1000,
        resolve,
      });
      const url = `http://127.0.0.1:${allowed.port}/to-internal`;
      await expect(tool.execute({ url }, { signal })).rejects.toThrow(
        'http_get refused: internal.example resolves to 127.0.0.1, which is a loopback address',
      );
    });
  });

  it("stops when the run's signal aborts", async () => {
    const controller = new AbortController();
    const call = get('/slow', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});
