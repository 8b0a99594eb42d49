import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  new Logger('Main').log(`Listening on http://${config.host}:${config.port}`);
}

main().catch((error: unknown) => {
  new Logger('Main').error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
