import { loadToolsConfig } from './tools-config';

describe('loadToolsConfig', () => {
  it('has safe defaults: no http_get hosts, no private addresses, 1 MiB, 10 s, no MCP servers', () => {
    expect(loadToolsConfig({})).toEqual({
      httpAllowedHosts: [],
      httpAllowPrivate: false,
      httpMaxBytes: 1048576,
      httpTimeoutMs: 10000,
    });
  });

  it('reads hosts, limits and the MCP servers file', () => {
    expect(
      loadToolsConfig({
        HTTP_TOOL_ALLOWED_HOSTS: ' api.example.com, LOCALHOST:8080 ,[::1]:9000',
        HTTP_TOOL_ALLOW_PRIVATE: 'true',
        HTTP_TOOL_MAX_BYTES: '2048',
        HTTP_TOOL_TIMEOUT_MS: '500',
        MCP_SERVERS_FILE: '/etc/mcp.json',
      }),
    ).toEqual({
      httpAllowedHosts: ['api.example.com', 'localhost:8080', '[::1]:9000'],
      httpAllowPrivate: true,
      httpMaxBytes: 2048,
      httpTimeoutMs: 500,
      mcpServersFile: '/etc/mcp.json',
    });
  });

  it.each([
    ['HTTP_TOOL_ALLOWED_HOSTS', 'http://example.com'],
    ['HTTP_TOOL_ALLOWED_HOSTS', 'example.com:99999'],
    ['HTTP_TOOL_ALLOWED_HOSTS', 'exa mple.com'],
    ['HTTP_TOOL_ALLOW_PRIVATE', 'yes'],
    ['HTTP_TOOL_MAX_BYTES', '0'],
    ['HTTP_TOOL_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadToolsConfig({ [name]: value })).toThrow(name);
  });
});
