import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMcpServersFile } from './mcp-servers-file';

describe('MCP_SERVERS_FILE', () => {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-servers-file-'));
  const file = (content: string) => {
    const path = join(folder, `${Math.random()}.json`);
    writeFileSync(path, content);
    return path;
  };

  it('reads stdio and Streamable HTTP servers, leaving out disabled ones', () => {
    const path = file(
      JSON.stringify({
        mcpServers: {
          files: { command: 'node', args: ['server.js'], env: { ROOT: '/tmp' } },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer x' } },
          off: { command: 'node', disabled: true },
        },
      }),
    );
    expect(readMcpServersFile(path)).toEqual([
      { name: 'files', transport: 'stdio', command: 'node', args: ['server.js'], env: { ROOT: '/tmp' } },
      {
        name: 'remote',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { authorization: 'Bearer x' },
      },
    ]);
  });

  it('fills in ${NAME} in a remote url and headers from the environment, keeping the values as secrets', () => {
    const path = file(
      JSON.stringify({
        mcpServers: {
          search: { url: 'https://${MCP_HOST}/mcp', headers: { authorization: 'Bearer ${TOKEN}', 'x-plain': 'as is' } },
          legacy: { type: 'sse', url: 'https://old.example.com/sse' },
        },
      }),
    );
    expect(readMcpServersFile(path, { MCP_HOST: 'mcp.example.com', TOKEN: 'secret-token-1' })).toEqual([
      {
        name: 'search',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { authorization: 'Bearer secret-token-1', 'x-plain': 'as is' },
        secrets: ['mcp.example.com', 'secret-token-1'],
      },
      { name: 'legacy', transport: 'sse', url: 'https://old.example.com/sse' },
    ]);
  });

  it('refuses a reference to an unset variable, naming it and the server, quoting no value', () => {
    const path = file(
      JSON.stringify({
        mcpServers: { search: { url: 'https://mcp.example.com/${PATH_PART}', headers: { a: '${TOKEN}' } } },
      }),
    );
    expect(() => readMcpServersFile(path, { PATH_PART: 'mcp' })).toThrow(
      `MCP_SERVERS_FILE (${path}): server "search": headers.a names the environment variable TOKEN, which is not set`,
    );
    expect(() => readMcpServersFile(path, { TOKEN: '' })).toThrow(
      'server "search": url names the environment variable PATH_PART, which is not set',
    );
    const bad = file(JSON.stringify({ mcpServers: { x: { url: '${BASE}/mcp' } } }));
    expect(() => readMcpServersFile(bad, { BASE: 'ftp://secret-host' })).toThrow(
      'server "x": url must be an http or https URL, not "${BASE}/mcp"',
    );
  });

  it.each([
    ['a missing file', join(folder, 'absent.json'), /cannot be read/],
    ['bad JSON', '{', /not valid JSON/],
    ['no mcpServers', '{}', /mcpServers/],
    ['a server with neither command nor url', '{"mcpServers": {"x": {"args": []}}}', /either "command"/],
    ['a url that is not http', '{"mcpServers": {"x": {"url": "ftp://host/"}}}', /http or https/],
    ['a server name with a slash', '{"mcpServers": {"a/b": {"command": "node"}}}', /server name "a\/b" may hold only/],
  ])('refuses %s, naming the variable and the file', (_, content, reason) => {
    const path = content.endsWith('.json') ? content : file(content);
    expect(() => readMcpServersFile(path)).toThrow(`MCP_SERVERS_FILE (${path})`);
    expect(() => readMcpServersFile(path)).toThrow(reason);
  });
});
