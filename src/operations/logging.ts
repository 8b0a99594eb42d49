import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config';

const LEVELS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' } as const;

/** `LOG_FORMAT=pretty`: one readable line an entry, written by pino-pretty on pino's worker thread. */
const PRETTY = {
  target: 'pino-pretty',
  options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
};

/**
 * Structured JSON logs (pino), each request's lines with its id (see request-id.ts), or the same as readable
 * lines. Requests are logged by method, path, status and time only: headers, and with them API keys, are never
 * logged.
 */
export function loggingOptions(level: AppConfig['logLevel'], format: AppConfig['logFormat'] = 'json'): Params {
  return {
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
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
