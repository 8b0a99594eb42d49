import { LoggerService } from '@nestjs/common';
import { TestClock } from '../../test/support/test-clock';
import { ToolRegistry } from './tool-registry';
import { loadToolsConfig } from '../config/tools-config';

describe('ToolRegistry, built-in tools', () => {
  const clock = new TestClock(new Date('2026-03-01T12:00:00.000Z'));
  const silent: LoggerService = { log() {}, warn() {}, error() {} };
  const registry = (env: NodeJS.ProcessEnv = {}) => new ToolRegistry(loadToolsConfig(env), clock, { logger: silent });

  it('lists current_time, and http_get only once hosts are allowed, sorted by id', () => {
    expect(
      registry()
        .list()
        .map((tool) => tool.id),
    ).toEqual(['current_time']);
    const tools = registry({ HTTP_TOOL_ALLOWED_HOSTS: 'example.com' }).list();
    expect(tools.map((tool) => tool.id)).toEqual(['current_time', 'http_get']);
    for (const tool of tools) {
      expect(Object.keys(tool).sort()).toEqual(['available', 'description', 'id', 'inputSchema', 'unavailableReason']);
      expect(tool).toMatchObject({ available: true, unavailableReason: null });
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(tool.description).not.toBe('');
    }
  });

  it('resolves known ids to runnable tools and reports the others as missing', async () => {
    const tools = registry();
    expect(tools.isKnown('current_time')).toBe(true);
    expect(tools.isKnown('http_get')).toBe(false);
    const { tools: resolved, missing } = tools.resolve(['current_time', 'http_get', 'mcp:x/y', 'current_time']);
    expect(missing).toEqual(['http_get', 'mcp:x/y']);
    expect(resolved.map((tool) => tool.modelName)).toEqual(['current_time']);
    const signal = new AbortController().signal;
    await expect(resolved[0].execute({}, { signal })).resolves.toMatchObject({ utc: '2026-03-01T12:00:00.000Z' });
  });
});
