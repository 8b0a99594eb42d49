import 'reflect-metadata';
import { installAsyncResourceBind } from './shared/async-resource-bind';
installAsyncResourceBind(); // before Nest and Fastify bind anything (see the file)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { CONSOLE_DIR } from './http/console/serve-console';
import { loadConfig } from './config/load-config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  exitIfShutdownHangs(config.http.shutdownTimeoutMs);
  await app.listen(config.port, config.host);
  // 0.0.0.0 and :: listen everywhere; a browser on this machine reaches them as localhost.
  const shown = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host;
  const base = `http://${shown.includes(':') ? `[${shown}]` : shown}:${config.port}`;
  const consoleAt = existsSync(join(CONSOLE_DIR, 'index.html')) ? `console ${base}/, ` : '';
  new Logger('Main').log(`Listening on ${base}: ${consoleAt}API ${base}/v1, docs ${base}/docs`);
}

/** Open requests are cut off after the limit; should anything else hold the shutdown, the process still ends. */
function exitIfShutdownHangs(shutdownTimeoutMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        new Logger('Main').error(`Shutdown took longer than ${shutdownTimeoutMs + 5000} ms; exiting`);
        process.exit(1);
      }, shutdownTimeoutMs + 5000).unref();
    });
  }
}

main().catch((error: unknown) => {
  new Logger('Main').error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
