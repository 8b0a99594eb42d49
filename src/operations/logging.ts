import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Injectable } from '@nestjs/common';
import { Logger, PinoLogger, type Params } from 'nestjs-pino';
import { pinoHttp, type Options } from 'pino-http';
import type { AppConfig } from '../config/app-config';

const LEVELS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' } as const;

/** The `pretty` format: one readable line an entry, written by pino-pretty on pino's worker thread. */
const PRETTY = {
  target: 'pino-pretty',
  options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
};

/** The log format: the one configured, else readable lines for a person at a terminal and JSON lines for the rest. */
export function logFormatFor(configured: AppConfig['logFormat'], terminal = process.stdout.isTTY === true) {
  return configured ?? (terminal ? 'pretty' : 'json');
}

/** Nest's own account of wiring the application (each module loaded, each route mapped): logged at `debug`. */
const WIRING_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * The application's logger (nestjs-pino's), with Nest's wiring at `debug`, so that at the default level the last
 * line a start prints is the service's own ("Listening on …") rather than a hundred lines of routes.
 */
@Injectable()
export class ServiceLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && WIRING_CONTEXTS.has(context)) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

/**
 * Structured JSON logs (pino), each request's line with its id (see request-id.ts), or the same as readable
 * lines. Requests are logged by method, path, status and time only: headers, and with them API keys, are never
 * logged. nestjs-pino binds no request (no routes): its middleware runs each request in an AsyncLocalStorage, and
 * on Node 20 one AsyncLocalStorage in use makes every promise of the process pay for promise hooks (a fifth of an
 * agent run's CPU). `logRequests` logs the requests instead.
 */
export function loggingOptions(level: AppConfig['logLevel'], format?: AppConfig['logFormat']): Params {
  return {
    forRoutes: [],
    pinoHttp: {
      level: LEVELS[level],
      ...(logFormatFor(format) === 'pretty' && { transport: PRETTY }),
      // A 503 (the store away, a readiness probe, shutting down) is a state the service is in, not a fault.
      customLogLevel: (_request, response, error) =>
        (error || response.statusCode >= 500) && response.statusCode !== 503
          ? 'error'
          : response.statusCode >= 400
            ? 'warn'
            : 'info',
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url,
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
        // Faults are logged with their stack where they happen (the problem filter); here the message is enough.
        err: (error: Error) => ({ type: error.name, message: error.message }),
      },
    },
  };
}

/**
 * Logs each request once answered (pino-http, with nestjs-pino's options, through the application's logger), from
 * a Fastify hook rather than a Nest middleware.
 */
export function logRequests(fastify: FastifyInstance, { pinoHttp: options }: Params): void {
  const { customLogLevel, serializers } = options as Options;
  let log: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  fastify.addHook('onRequest', (request, reply, done) => {
    // The application's logger exists once Nest has initialised its modules, before the first request.
    log ??= pinoHttp({ logger: PinoLogger.root, customLogLevel, serializers });
    // pino-http takes the request's id from the raw request.
    (request.raw as IncomingMessage & { id?: string }).id = request.id;
    log(request.raw, reply.raw);
    done();
  });
}
