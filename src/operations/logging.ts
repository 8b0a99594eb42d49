import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { PinoLogger, type Params } from 'nestjs-pino';
import { pinoHttp, type Options } from 'pino-http';
import type { AppConfig } from '../config/app-config';

const LEVELS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' } as const;

/** `LOG_FORMAT=pretty`: one readable line an entry, written by pino-pretty on pino's worker thread. */
const PRETTY = {
  target: 'pino-pretty',
  options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
};

/**
 * Structured JSON logs (pino), each request's line with its id (see request-id.ts), or the same as readable
 * lines. Requests are logged by method, path, status and time only: headers, and with them API keys, are never
 * logged. nestjs-pino binds no request (no routes): its middleware runs each request in an AsyncLocalStorage, and
 * on Node 20 one AsyncLocalStorage in use makes every promise of the process pay for promise hooks (a fifth of an
 * agent run's CPU). `logRequests` logs the requests instead.
 */
export function loggingOptions(level: AppConfig['logLevel'], format: AppConfig['logFormat'] = 'json'): Params {
  return {
    forRoutes: [],
    pinoHttp: {
      level: LEVELS[level],
      ...(format === 'pretty' && { transport: PRETTY }),
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
