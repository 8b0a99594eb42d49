import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eventually } from './eventually';
import { request } from './test-app';

/** The service as a real process of its own (for kill -9 tests), answering at `url`. */
export interface ServiceProcess {
  url: string;
  /** kill -9, resolved once the process is gone. */
  kill(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** Gets everything the process writes (its log), as it comes. */
  output?: (text: string) => void;
}

/**
 * Starts the service on `dataDir` with `env` (`LOG_LEVEL` is `error` unless it says otherwise) on a free loopback
 * port, and waits until /health answers.
 */
export async function startServiceProcess(
  dataDir: string,
  env: Record<string, string>,
  { output }: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, 'run-main.js')], {
    env: { ...process.env, LOG_LEVEL: 'error', ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    stdio: output ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  child.stdout?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output?.(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const service = {
    url: `http://127.0.0.1:${port}`,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    // A busy machine may take a while to start a process that transpiles the sources on load.
    await eventually(async () => expect((await request(service.url, 'GET', '/health')).status).toBe(200), 45_000);
  } catch (error) {
    await service.kill();
    throw error;
  }
  return service;
}

/** A port no process listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
