import { AsyncLocalStorage } from 'node:async_hooks';
import Fastify from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { requestIdOf } from '../http/request-id';
import { logRequests, loggingOptions } from './logging';
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
