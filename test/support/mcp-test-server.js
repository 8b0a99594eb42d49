// An MCP server for tests, written with the official SDK. Run as a script it serves over stdio
// (`node test/support/mcp-test-server.js [name]`); required, it exports `createMcpTestServer`.
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const text = (value) => ({ content: [{ type: 'text', text: String(value) }] });

/**
 * Tools: `echo {text}`, `add {a, b}` (structured `{sum}`), `fail {message}` (an `isError` result),
 * `wait {ms}` (ends early when the call is cancelled), `grow {name}` (adds a tool: the server sends
 * `notifications/tools/list_changed`) and, with `canExit`, `exit` (the process ends just after answering).
 */
function createMcpTestServer({ name = 'mcp-test-server', canExit = false } = {}) {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Answers with the text it is given', inputSchema: { text: z.string().describe('What to echo') } },
    async ({ text: said }) => text(said),
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ ...text(a + b), structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'fail',
    { description: 'Always fails with the given message', inputSchema: { message: z.string() } },
    async ({ message }) => ({ ...text(message), isError: true }),
  );
  server.registerTool(
    'wait',
    { description: 'Answers after some milliseconds', inputSchema: { ms: z.number().int().min(0) } },
    ({ ms }, { signal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(text(`waited ${ms} ms`)), ms);
        signal.addEventListener('abort', () => clearTimeout(timer));
      }),
  );
  server.registerTool(
    'grow',
    {
      description: 'Adds a tool of the given name (which echoes), so the server tells its tools changed',
      inputSchema: { name: z.string() },
    },
    async ({ name: added }) => {
      server.registerTool(added, { description: 'Grown', inputSchema: { text: z.string() } }, async ({ text: said }) =>
        text(said),
      );
      return text(`added ${added}`);
    },
  );
  if (canExit) {
    server.registerTool('exit', { description: 'Ends the server process' }, async () => {
      setTimeout(() => process.exit(0), 20);
      return text('bye');
    });
  }
  return server;
}

module.exports = { createMcpTestServer };

if (require.main === module) {
  const server = createMcpTestServer({ name: process.argv[2], canExit: true });
  // Lets a test check that the process ends with the service.
  if (process.env.MCP_TEST_SERVER_PID_FILE)
    require('node:fs').writeFileSync(process.env.MCP_TEST_SERVER_PID_FILE, String(process.pid));
  // Ends with its client: a closed stdin means the service has gone.
  process.stdin.on('end', () => process.exit(0));
  server.connect(new StdioServerTransport()).catch((error) => {
    process.stderr.write(`mcp-test-server: ${error.stack}\n`);
    process.exit(1);
  });
}
