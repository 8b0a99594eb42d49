import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { temporaryDataDir } from '../support/test-app';

describe('what a start prints', () => {
  it("ends with the service's start line, in JSON lines when standard output is not a terminal", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: temporaryDataDir(), PORT: '0', HOST: '127.0.0.1' };
    delete env.LOG_FORMAT;
    delete env.LOG_LEVEL;
    const child = spawn(process.execPath, [join(__dirname, '..', 'support', 'run-main.js')], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    try {
      await eventually(() => expect(output).toMatch(/Listening on/), 45_000);
      // Anything printed after the start line would show up meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lines = output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; context?: string; msg: string });
      expect(lines.map((line) => line.context)).not.toContain('RouterExplorer');
      expect(lines.map((line) => line.context)).not.toContain('InstanceLoader');
      expect(lines.length).toBeLessThan(10);
      expect(lines[lines.length - 1]).toMatchObject({ level: 30, context: 'Main' });
      expect(lines[lines.length - 1].msg).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  }, 60_000);
});
