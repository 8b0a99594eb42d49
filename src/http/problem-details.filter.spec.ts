import type { ArgumentsHost } from '@nestjs/common';
import { Logger as NestLogger } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import { loadConfig } from '../config/load-config';
import { StoreUnavailableError } from '../event-store/event-store';
import { ProblemDetailsFilter } from './problem-details.filter';
import { logLines } from '../../test/support/log-lines';

describe('ProblemDetailsFilter logging', () => {
  const { lines, sink } = logLines();
  const sent: unknown[] = [];

  /** The request and reply as the filter reads them from Nest's host. */
  function host(id: string): ArgumentsHost {
    const reply = {
      raw: { destroyed: false },
      header: () => reply,
      status: () => reply,
      type: () => reply,
      send: (body: unknown) => sent.push(body),
    };
    const request = { id, url: '/v1/agents', raw: { socket: { destroyed: false } } };
    return {
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
    } as unknown as ArgumentsHost;
  }

  beforeAll(() => {
    NestLogger.overrideLogger(new Logger(new PinoLogger({ pinoHttp: [{ level: 'debug' }, sink] }), {}));
  });
  afterAll(() => {
    NestLogger.overrideLogger(false);
  });

  it('puts the request id on the lines of unexpected errors and of an unavailable store', () => {
    const filter = new ProblemDetailsFilter(loadConfig({}));
    filter.catch(new Error('boom'), host('req-500'));
    filter.catch(new StoreUnavailableError('down', { cause: new Error('ECONNREFUSED') }), host('req-503'));

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 50, req: { id: 'req-500' }, context: 'ProblemDetailsFilter' });
    expect(lines[0].msg).toMatch(/^Error: boom\n\s+at /);
    expect(lines[1]).toMatchObject({ level: 40, req: { id: 'req-503' } });
    expect(lines[1].msg).toContain('ECONNREFUSED');
    expect(sent).toMatchObject([{ status: 500 }, { status: 503 }]);
  });
});
