import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { stdioMcpTestServer, writeMcpServersFile } from '../../test/support/mcp-test-servers';
import { TestClock } from '../../test/support/test-clock';
import { Clock } from '../shared/clock';
import { ToolRegistry } from './tool-registry';
import { loadToolsConfig } from '../config/tools-config';
import { ToolsModule } from './tools.module';

@Global()
@Module({ providers: [{ provide: Clock, useValue: new TestClock() }], exports: [Clock] })
class ClockModule {}

describe('ToolsModule', () => {
  it('connects MCP servers on init, answers GET /v1/tools, and ends stdio servers on shutdown', async () => {
    const pidFile = join(tmpdir(), `mcp-test-server-${process.pid}-${Date.now()}.pid`);
    const file = writeMcpServersFile({
      local: { ...stdioMcpTestServer(), env: { MCP_TEST_SERVER_PID_FILE: pidFile } },
    });
    const silent = { log() {}, warn() {}, error() {} };
    const moduleRef = await Test.createTestingModule({
      imports: [ClockModule, ToolsModule.forRoot(loadToolsConfig({ MCP_SERVERS_FILE: file }), { logger: silent })],
    }).compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();

    const response = await app.inject({ method: 'GET', url: '/v1/tools' });
    expect(response.statusCode).toBe(200);
    const { tools } = response.json() as { tools: { id: string }[] };
    expect(tools.map((tool) => tool.id)).toEqual([...tools.map((tool) => tool.id)].sort());
    expect(tools).toContainEqual(expect.objectContaining({ id: 'mcp:local/echo', inputSchema: expect.any(Object) }));
    expect(app.get(ToolRegistry).isKnown('current_time')).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow();

    await app.close();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  }, 15_000);

  it('stops the start on a bad MCP_SERVERS_FILE', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ClockModule, ToolsModule.forRoot(loadToolsConfig({ MCP_SERVERS_FILE: '/nonexistent/mcp.json' }))],
    }).compile();
    await expect(moduleRef.init()).rejects.toThrow('MCP_SERVERS_FILE (/nonexistent/mcp.json)');
  });
});
