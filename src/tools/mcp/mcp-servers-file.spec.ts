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
