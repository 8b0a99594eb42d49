import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createMcpTestServer(options?: { name?: string; canExit?: boolean }): McpServer;
