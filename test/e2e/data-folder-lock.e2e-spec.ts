import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { startTestApp, temporaryDataDir } from '../support/test-app';

/** The service started as a real process of its own on `dataDir`; `output` gathers what it prints. */
function startProcess(dataDir: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [join(__dirname, '..', 'support', 'run-main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('one process per data folder', () => {
  it('refuses a second process on the same DATA_DIR, saying why, and frees the folder when the first is killed', async () => {
    const dataDir = temporaryDataDir();
    const first = startProcess(dataDir);
    try {
      await until(() => /Listening on/.test(first.output()), 25_000);

      const second = startProcess(dataDir);
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(
        `The data folder ${dataDir} is in use by another process (pid ${first.child.pid})`,
      );
      expect(second.output()).toMatch(/EVENTSTORE_URL/);

      // In this process too; Nest's own report of the failed start is kept out of the test output.
      const quiet = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await expect(startTestApp({ dataDir })).rejects.toThrow(/is in use by another process/);
      quiet.mockRestore();
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    // The operating system dropped the lock with the killed process: no stale lock.
    const api = await startTestApp({ dataDir });
    expect((await api.request('GET', '/health')).status).toBe(200);
    await api.close();
  }, 60_000);
});
