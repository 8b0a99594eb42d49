import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from './service-process';
import { dirname, join } from 'node:path';

/** Where `@modelcontextprotocol/server-everything` (the MCP reference server) is started from: its package's bin. */
const EVERYTHING_PACKAGE = require.resolve('@modelcontextprotocol/server-everything/package.json');
const EVERYTHING_BIN = join(
  dirname(EVERYTHING_PACKAGE),
  (JSON.parse(readFileSync(EVERYTHING_PACKAGE, 'utf8')) as { bin: Record<string, string> }).bin[
    'mcp-server-everything'
  ],
);

/** The reference server as a child process, in Streamable HTTP mode (`/mcp`) or the older HTTP+SSE one (`/sse`). */
export interface EverythingServer {
  port: number;
  /** Its MCP endpoint on 127.0.0.1. */
  url: string;
  /** Ends the process at once (kill -9), as a crash would. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

/** Starts the reference server on a free loopback port and waits until it says it listens. */
export async function startEverythingServer(mode: 'streamableHttp' | 'sse'): Promise<EverythingServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(process.execPath, [EVERYTHING_BIN, mode], {
      env: { PATH: process.env.PATH, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await listening(child);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return { port, url: `http://127.0.0.1:${port}${path}`, stop, start };
}

/** Both modes print a line naming the port on standard error once they listen; an exit before it is a failure. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ended (${code}) before listening: ${said}`)));
  });
}
