import { createServer as createHttpServer } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { LoggerService } from '@nestjs/common';
import { TestClock } from '../../../test/support/test-clock';
import {
  HttpMcpTestServer,
  startHttpMcpTestServer,
  stdioMcpTestServer,
  writeMcpServersFile,
} from '../../../test/support/mcp-test-servers';
import { ToolRegistry } from '../tool-registry';
import { loadToolsConfig } from '../../config/tools-config';

const signal = new AbortController().signal;

function recordingLogger(): LoggerService & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, log() {}, error() {}, debug() {}, warn: (message: string) => void warnings.push(message) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('MCP tools through the registry', () => {
  let remote: HttpMcpTestServer;
  let registry: ToolRegistry;
  let logger: ReturnType<typeof recordingLogger>;

  beforeEach(async () => {
    remote = await startHttpMcpTestServer();
    const file = writeMcpServersFile({
      local: stdioMcpTestServer(),
      remote: remote.entry,
      absent: { url: `http://127.0.0.1:${await closedPort()}/mcp` },
      missing: { command: '/nonexistent/mcp-server' },
    });
    logger = recordingLogger();
    const config = loadToolsConfig({ MCP_SERVERS_FILE: file, MCP_ALLOWED_HOSTS: '127.0.0.1' });
    registry = new ToolRegistry(config, new TestClock(), {
      logger,
      mcp: { retryMinDelayMs: 300, connectTimeoutMs: 5000, callTimeoutMs: 1000 },
    });
    await registry.onModuleInit();
  }, 15_000);

  afterEach(async () => {
    await registry.onApplicationShutdown();
    await remote.close();
  });

  it('lists the tools of both servers as mcp:<server>/<tool>, with their schemas; unreachable ones as unavailable', () => {
    const ids = registry.list().map((tool) => tool.id);
    expect(ids).toEqual([
      'current_time',
      'mcp:absent/*',
      'mcp:local/add',
      'mcp:local/echo',
      'mcp:local/exit',
      'mcp:local/fail',
      'mcp:local/grow',
      'mcp:local/wait',
      'mcp:missing/*',
      'mcp:remote/add',
      'mcp:remote/echo',
      'mcp:remote/fail',
      'mcp:remote/grow',
      'mcp:remote/wait',
    ]);
    expect(registry.list().find((tool) => tool.id === 'mcp:remote/add')).toMatchObject({
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      available: true,
      unavailableReason: null,
    });
    expect(registry.list().find((tool) => tool.id === 'mcp:absent/*')).toMatchObject({
      available: false,
      unavailableReason: expect.stringMatching(/^MCP server "absent" cannot be reached: .*ECONNREFUSED/),
    });
    expect(logger.warnings).toEqual([
      expect.stringMatching(/^MCP server "absent" cannot be reached: .*ECONNREFUSED/),
      expect.stringMatching(/^MCP server "missing" cannot be reached: .*ENOENT/),
    ]);
  });

  it('gives a run the tools of a server that never connected as tools whose calls fail saying why', async () => {
    expect(registry.isKnown('mcp:absent/anything')).toBe(true);
    const { tools, missing } = registry.resolve(['mcp:absent/anything', 'mcp:absent/*', 'mcp:nowhere/x']);
    expect(missing).toEqual(['mcp:absent/*', 'mcp:nowhere/x']);
    expect(tools[0].unavailableReason).toMatch(/^MCP server "absent" cannot be reached/);
    await expect(tools[0].execute({}, { signal })).rejects.toThrow(
      /^MCP server "absent" cannot be reached: .*; the call was not made$/,
    );
  });

  it('calls tools over stdio and Streamable HTTP', async () => {
    const { tools, missing } = registry.resolve(['mcp:local/echo', 'mcp:remote/add']);
    expect(missing).toEqual([]);
    expect(tools.map((tool) => tool.modelName)).toEqual(['mcp_local_echo', 'mcp_remote_add']);
    await expect(tools[0].execute({ text: 'hi' }, { signal })).resolves.toBe('hi');
    await expect(tools[1].execute({ a: 2, b: 3 }, { signal })).resolves.toEqual({ sum: 5 });
  });

  it("rejects with the server's message on an isError result or a bad input", async () => {
    const [local, remoteFail] = registry.resolve(['mcp:local/fail', 'mcp:remote/fail']).tools;
    await expect(local.execute({ message: 'no luck' }, { signal })).rejects.toThrow('no luck');
    await expect(remoteFail.execute({ message: 'nope' }, { signal })).rejects.toThrow('nope');
    const [add] = registry.resolve(['mcp:local/add']).tools;
    await expect(add.execute({ a: 'two' }, { signal })).rejects.toThrow(/validation/i);
    await expect(add.execute('2 + 3', { signal })).rejects.toThrow('must be an object');
  });

  it('ends a call that takes longer than the call timeout as a tool error, the connection still usable', async () => {
    const [wait, echo] = registry.resolve(['mcp:remote/wait', 'mcp:remote/echo']).tools;
    await expect(wait.execute({ ms: 5000 }, { signal })).rejects.toThrow(
      'MCP server "remote" did not answer the call of "wait" within 1000 ms',
    );
    await expect(echo.execute({ text: 'still here' }, { signal })).resolves.toBe('still here');
  });

  it('refreshes the tools when the server says they changed (notifications/tools/list_changed)', async () => {
    const [grow] = registry.resolve(['mcp:local/grow']).tools;
    await expect(grow.execute({ name: 'sprout' }, { signal })).resolves.toBe('added sprout');
    await waitFor(() => registry.isKnown('mcp:local/sprout'));
    const [sprout] = registry.resolve(['mcp:local/sprout']).tools;
    await expect(sprout.execute({ text: 'new' }, { signal })).resolves.toBe('new');
  });

  it("passes the run's signal: an aborted call rejects at once", async () => {
    const [wait] = registry.resolve(['mcp:local/wait']).tools;
    const controller = new AbortController();
    const call = wait.execute({ ms: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('lists the tools of a server that went away as unavailable, fails their calls, and picks it up when it is back', async () => {
    const [exit, echo] = registry.resolve(['mcp:local/exit', 'mcp:local/echo']).tools;
    await expect(exit.execute({}, { signal })).resolves.toBe('bye');
    const localEcho = () => registry.list().find((tool) => tool.id === 'mcp:local/echo');
    await waitFor(() => localEcho()?.available === false);
    expect(localEcho()?.unavailableReason).toBe('MCP server "local" went away: the connection closed');
    await expect(echo.execute({ text: 'hi' }, { signal })).rejects.toThrow(
      'MCP server "local" went away: the connection closed; the call was not made',
    );
    const [standIn] = registry.resolve(['mcp:local/echo']).tools;
    await expect(standIn.execute({ text: 'hi' }, { signal })).rejects.toThrow('MCP server "local" went away');
    expect(registry.list().find((tool) => tool.id === 'mcp:remote/echo')?.available).toBe(true);
    await waitFor(() => localEcho()?.available === true);
    await expect(echo.execute({ text: 'again' }, { signal })).resolves.toBe('again');
  });

  it('rejects when a Streamable HTTP server is gone, the others still working', async () => {
    const [remoteEcho, localEcho] = registry.resolve(['mcp:remote/echo', 'mcp:local/echo']).tools;
    await remote.close();
    await expect(remoteEcho.execute({ text: 'hi' }, { signal })).rejects.toThrow(/MCP server "remote" failed/);
    expect(registry.list().find((tool) => tool.id === 'mcp:remote/echo')).toMatchObject({
      available: false,
      unavailableReason: expect.stringMatching(/^MCP server "remote" went away/),
    });
    await expect(localEcho.execute({ text: 'still here' }, { signal })).resolves.toBe('still here');
  });
});

describe('remote MCP servers: references to the environment and the address rules', () => {
  const token = 'tok-0123456789-secret';
  const logger = recordingLogger();
  let remote: HttpMcpTestServer;
  let registry: ToolRegistry;
  const leaky = createHttpServer((request, response) => {
    response.writeHead(500).end(`no session for ${request.headers.authorization}`);
  });

  beforeAll(async () => {
    remote = await startHttpMcpTestServer();
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    const { port } = remote.url.match(/:(?<port>\d+)\//)!.groups!;
    const bearer = { authorization: 'Bearer ${MCP_TOKEN}' };
    const file = writeMcpServersFile({
      remote: { url: remote.url, headers: { ...bearer, 'x-tenant': '${MCP_TENANT}-a' } },
      named: { url: `http://localhost:${port}/mcp` },
      leaky: { url: `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/mcp`, headers: bearer },
    });
    const config = loadToolsConfig({ MCP_SERVERS_FILE: file, MCP_ALLOWED_HOSTS: `127.0.0.1:${port},127.0.0.1` });
    const env = { MCP_TOKEN: token, MCP_TENANT: 'blue' };
    registry = new ToolRegistry(config, new TestClock(), { logger, env, mcp: { retryMinDelayMs: 60_000 } });
    await registry.onModuleInit();
  });

  afterAll(async () => {
    await registry.onApplicationShutdown();
    await remote.close();
    await new Promise((resolve) => leaky.close(resolve));
  });

  it('sends the headers with their ${NAME} filled in from the environment', async () => {
    const [echo] = registry.resolve(['mcp:remote/echo']).tools;
    await expect(echo.execute({ text: 'hi' }, { signal })).resolves.toBe('hi');
    expect(remote.headers.length).toBeGreaterThan(0);
    for (const headers of remote.headers) {
      expect(headers).toMatchObject({ authorization: `Bearer ${token}`, 'x-tenant': 'blue-a' });
    }
  });

  it('refuses a name that resolves to a loopback address not in MCP_ALLOWED_HOSTS, and says so in the list', () => {
    const named = registry.list().find((tool) => tool.id === 'mcp:named/*');
    expect(named).toMatchObject({ available: false });
    expect(named?.unavailableReason).toMatch(
      /^MCP server "named" is refused: its address (127\.0\.0\.1|::1) \(localhost\) is a loopback address, not a public one, and localhost:\d+ is not in MCP_ALLOWED_HOSTS$/,
    );
    expect(logger.warnings.filter((warning) => warning.includes('"named"'))).toHaveLength(1);
  });

  it('never quotes a filled-in value: an error that holds the token is redacted', () => {
    const leakyReason = registry.list().find((tool) => tool.id === 'mcp:leaky/*')?.unavailableReason;
    expect(leakyReason).toContain('no session for Bearer ***');
    expect(JSON.stringify(registry.list())).not.toContain(token);
    expect(logger.warnings.join('\n')).toContain('"leaky"');
    expect(logger.warnings.join('\n')).not.toContain(token);
  });
});
