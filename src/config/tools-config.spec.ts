import { loadToolsConfig } from './tools-config';

describe('loadToolsConfig', () => {
  it('has safe defaults: no http_get hosts, no private addresses, 1 MiB, 10 s, no MCP servers', () => {
    expect(loadToolsConfig({})).toEqual({
      httpAllowedHosts: [],
      httpAllowPrivate: false,
      httpMaxBytes: 1048576,
      httpTimeoutMs: 10000,
      mcpAllowedHosts: [],
      mcpCallTimeoutMs: 60000,
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
        MCP_ALLOWED_HOSTS: '127.0.0.1, Localhost:8931',
        MCP_CALL_TIMEOUT_MS: '2500',
      }),
    ).toEqual({
      httpAllowedHosts: ['api.example.com', 'localhost:8080', '[::1]:9000'],
      httpAllowPrivate: true,
      httpMaxBytes: 2048,
      httpTimeoutMs: 500,
      mcpServersFile: '/etc/mcp.json',
      mcpAllowedHosts: ['127.0.0.1', 'localhost:8931'],
      mcpCallTimeoutMs: 2500,
    });
  });

  it.each([
    ['HTTP_TOOL_ALLOWED_HOSTS', 'http://example.com'],
    ['HTTP_TOOL_ALLOWED_HOSTS', 'example.com:99999'],
    ['HTTP_TOOL_ALLOWED_HOSTS', 'exa mple.com'],
    ['HTTP_TOOL_ALLOW_PRIVATE', 'yes'],
    ['HTTP_TOOL_MAX_BYTES', '0'],
    ['HTTP_TOOL_TIMEOUT_MS', 'soon'],
    ['MCP_ALLOWED_HOSTS', 'https://mcp.example.com'],
    ['MCP_CALL_TIMEOUT_MS', '0'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadToolsConfig({ [name]: value })).toThrow(name);
  });
});
