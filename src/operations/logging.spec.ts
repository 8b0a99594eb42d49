import { AsyncLocalStorage } from 'node:async_hooks';
import Fastify from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { requestIdOf } from '../http/request-id';
import { ServiceLogger, logFormatFor, logRequests, loggingOptions } from './logging';
import { logLines } from '../../test/support/log-lines';

describe('request logging', () => {
  const { lines, sink } = logLines();
  const root = PinoLogger.root;

  beforeAll(() => {
    (PinoLogger as unknown as { root: pino.Logger }).root = pino({ level: 'info' }, sink);
  });
  afterAll(() => {
    (PinoLogger as unknown as { root: pino.Logger }).root = root;
  });

  it('logs each request with its id and status, without its headers and without an AsyncLocalStorage', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    const fastify = Fastify({ genReqId: requestIdOf, requestIdHeader: false });
    logRequests(fastify, loggingOptions('log'));
    fastify.get('/v1/agents', async () => ({ data: [] }));
    const headers = { 'x-request-id': 'trace-42', authorization: 'Bearer secret-key' };
    await fastify.inject({ method: 'GET', url: '/v1/agents', headers });
    await fastify.inject({ method: 'GET', url: '/v1/nowhere' });
    await fastify.close();

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, req: { id: 'trace-42', method: 'GET', url: '/v1/agents' } });
    expect(lines[0].res).toEqual({ statusCode: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret-key');
    expect(lines[1]).toMatchObject({ level: 40, res: { statusCode: 404 } });
    expect((lines[1].req as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });
});

describe('the log format and the start', () => {
  const { lines, sink } = logLines();

  it('writes readable lines at a terminal and JSON lines elsewhere, unless LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });

  it("logs Nest's wiring of modules and routes at debug, and everything else as it was", () => {
    // The first PinoLogger made in a process sets where every one writes: this file makes no other.
    const logger = new ServiceLogger(new PinoLogger({ pinoHttp: [{ level: 'info' }, sink] }), {});
    logger.log('AgentsModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/v1/agents, POST} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('Listening on http://127.0.0.1:3000', 'Main');
    logger.warn('No API_KEYS are set', 'Access');
    expect(lines.map(({ level, msg, context }) => [level, context, msg])).toEqual([
      [30, 'Main', 'Listening on http://127.0.0.1:3000'],
      [40, 'Access', 'No API_KEYS are set'],
    ]);
  });
});
