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
    registry = new ToolRegistry(loadToolsConfig({ MCP_SERVERS_FILE: file }), new TestClock(), {
      logger,
      mcp: { retryMinDelayMs: 300, connectTimeoutMs: 5000 },
    });
    await registry.onModuleInit();
  }, 15_000);

  afterEach(async () => {
    await registry.onApplicationShutdown();
    await remote.close();
  });

  it('lists the tools of both servers as mcp:<server>/<tool>, with their schemas; unreachable ones are left out', () => {
    const ids = registry.list().map((tool) => tool.id);
    expect(ids).toEqual([
      'current_time',
      'mcp:local/add',
      'mcp:local/echo',
      'mcp:local/exit',
      'mcp:local/fail',
      'mcp:local/wait',
      'mcp:remote/add',
      'mcp:remote/echo',
      'mcp:remote/fail',
      'mcp:remote/wait',
    ]);
    expect(registry.list().find((tool) => tool.id === 'mcp:remote/add')).toMatchObject({
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    });
    expect(logger.warnings).toEqual([
      expect.stringMatching(/^MCP server "absent" cannot be reached: .*ECONNREFUSED/),
      expect.stringMatching(/^MCP server "missing" cannot be reached: .*ENOENT/),
    ]);
    expect(registry.resolve(['mcp:absent/anything']).missing).toEqual(['mcp:absent/anything']);
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

  it("passes the run's signal: an aborted call rejects at once", async () => {
    const [wait] = registry.resolve(['mcp:local/wait']).tools;
    const controller = new AbortController();
    const call = wait.execute({ ms: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects calls to a server that went away, drops its tools, and picks it up again when it is back', async () => {
    const [exit, echo] = registry.resolve(['mcp:local/exit', 'mcp:local/echo']).tools;
    await expect(exit.execute({}, { signal })).resolves.toBe('bye');
    await waitFor(() => !registry.isKnown('mcp:local/echo'));
    await expect(echo.execute({ text: 'hi' }, { signal })).rejects.toThrow('MCP server "local" is not connected');
    expect(registry.isKnown('mcp:remote/echo')).toBe(true);
    await waitFor(() => registry.isKnown('mcp:local/echo'));
    await expect(echo.execute({ text: 'again' }, { signal })).resolves.toBe('again');
  });

  it('rejects when a Streamable HTTP server is gone, the others still working', async () => {
    const [remoteEcho, localEcho] = registry.resolve(['mcp:remote/echo', 'mcp:local/echo']).tools;
    await remote.close();
    await expect(remoteEcho.execute({ text: 'hi' }, { signal })).rejects.toThrow(/MCP server "remote" failed/);
    expect(registry.isKnown('mcp:remote/echo')).toBe(false);
    await expect(localEcho.execute({ text: 'still here' }, { signal })).resolves.toBe('still here');
  });
});
