import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AppConfig } from './config';
import { CoreOverrides } from './core.module';
import { registerMergePatchParser } from './http/merge-patch-parser';
import { BODY_LIMIT_BYTES } from './http/problem';
import { serveOpenApi } from './http/openapi/openapi';
import { createValidationPipe } from './http/validation';

/** Builds the service (used by main.ts, the e2e tests and the benchmarks). Call `listen` to serve. */
export async function createApp(config: AppConfig, overrides: CoreOverrides = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, overrides), adapter, {
    logger: logLevels(config.logLevel),
  });
  app.useGlobalPipes(createValidationPipe());
  serveOpenApi(app);
  app.enableShutdownHooks();
  // Bodies are JSON only: without Fastify's text/plain parser other media types get a 415.
  app.getHttpAdapter().getInstance().removeContentTypeParser('text/plain');
  // PATCH bodies may also be JSON Merge Patch documents (RFC 7396).
  registerMergePatchParser(app.getHttpAdapter().getInstance());
  await app.init();
  return app;
}

function logLevels(level: AppConfig['logLevel']) {
  const all = ['error', 'warn', 'log', 'debug'] as const;
  return all.slice(0, all.indexOf(level) + 1) as Array<(typeof all)[number]>;
}
