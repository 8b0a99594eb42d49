import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccessControl } from './access/access-control';
import { AppModule } from './app.module';
import { serveConsole } from './http/console/serve-console';
import { AppConfig } from './config/app-config';
import { CoreOverrides } from './core.module';
import { fastifyOptions, registerShutdownGuard } from './http/http-server';
import { StreamWatch } from './live/stream-watch';
import { registerJsonBodyParser } from './http/json-body';
import { registerMergePatchParser } from './http/merge-patch-parser';
import { registerSecurityHeaders } from './http/security-headers';
import { serveOpenApi } from './http/openapi/openapi';
import { createValidationPipe } from './http/validation';
import { Metrics } from './operations/metrics';
import { returnRequestIds } from './http/request-id';
import { ServiceLogger, logRequests, loggingOptions } from './operations/logging';
import { CommandBus } from '@nestjs/cqrs';
import { IdempotencyHooks } from './idempotency/idempotency-hooks';
import { setCaptureContent } from './shared/trace-context';
import { Redaction, configuredSecrets } from './shared/redaction';
import { registerHttpSpans } from './telemetry/http-spans';
import { addCommandSpans } from './telemetry/command-spans';

/** Builds the service (used by main.ts, the e2e tests and the benchmarks). Call `listen` to serve. */
export async function createApp(config: AppConfig, overrides: CoreOverrides = {}): Promise<NestFastifyApplication> {
  // The OpenTelemetry SDK is loaded only when tracing is on, as the EventStoreDB client is.
  const tracingOn = Boolean(config.telemetry.tracesEndpoint || overrides.spanExporter);
  const tracing = tracingOn
    ? await (
        await import('./telemetry/tracing-sdk')
      ).startTracing(config.telemetry, new Redaction(configuredSecrets(config)), overrides.spanExporter)
    : undefined;
  setCaptureContent(tracingOn && config.telemetry.captureContent);
  const adapter = new FastifyAdapter(fastifyOptions(config.http));
  // Our own JSON parser replaces Nest's: bodies are JSON only, checked for depth and refused keys.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, overrides), adapter, {
    bufferLogs: true,
    bodyParser: false,
    // A failed start is thrown to the caller (main.ts says why and exits), not a process.exit in here.
    abortOnError: false,
  });
  app.useLogger(app.get(ServiceLogger));
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify, config.http);
  registerShutdownGuard(fastify, config.http);
  // Once the service stops (after every shutdown hook, the executor's included), each Prefer: wait request is
  // answered with its run as it stands, before the server waits for its connections to close.
  const watch = app.get(StreamWatch);
  fastify.addHook('preClose', (done) => {
    watch.release();
    done();
  });
  if (tracing) {
    registerHttpSpans(fastify);
    addCommandSpans(app.get(CommandBus));
    // After the shutdown hooks (runs in flight end first): the last spans are sent.
    fastify.addHook('onClose', () => tracing.stop());
  }
  returnRequestIds(fastify);
  registerSecurityHeaders(fastify);
  app.get(AccessControl).register(fastify);
  // After access control, as nestjs-pino's middleware was: refused keys and rate-limited requests write no line.
  logRequests(fastify, loggingOptions(config.logLevel, config.logFormat));
  app.get(Metrics).observeRequests(fastify);
  app.get(IdempotencyHooks).register(fastify);
  app.useGlobalPipes(createValidationPipe());
  serveOpenApi(app);
  // The web console's built files at `/` (absent until `npm run build:web` has run).
  serveConsole(fastify);
  app.enableShutdownHooks();
  // PATCH bodies may also be JSON Merge Patch documents (RFC 7396).
  registerMergePatchParser(fastify, config.http);
  await app.init();
  return app;
}
