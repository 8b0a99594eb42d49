/** What the service loads at start: the heavy clients of optional features wait until they are used. */
const mockLoaded: string[] = [];
jest.mock('@eventstore/db-client', () => {
  mockLoaded.push('@eventstore/db-client');
  return jest.requireActual('@eventstore/db-client');
});
jest.mock('@modelcontextprotocol/sdk/client/index.js', () => {
  mockLoaded.push('@modelcontextprotocol/sdk');
  return jest.requireActual('@modelcontextprotocol/sdk/client/index.js');
});
jest.mock('@opentelemetry/sdk-trace-base', () => {
  mockLoaded.push('@opentelemetry/sdk-trace-base');
  return jest.requireActual('@opentelemetry/sdk-trace-base');
});
jest.mock('ai', () => {
  mockLoaded.push('ai');
  return jest.requireActual('ai');
});
jest.mock('@ai-sdk/openai', () => {
  mockLoaded.push('@ai-sdk/openai');
  return jest.requireActual('@ai-sdk/openai');
});

describe('modules loaded at start', () => {
  it('are not the EventStoreDB client, the MCP SDK, the AI SDK nor the OpenTelemetry SDK, which load when first used', () => {
    require('./app');
    expect(mockLoaded).toEqual([]);

    require('./event-store/eventstoredb/eventstoredb-event-store');
    require('./tools/mcp/mcp-server-connection');
    require('./execution/agent-loop/agent-loop');
    require('./telemetry/tracing-sdk');
    expect(mockLoaded.sort()).toEqual([
      '@eventstore/db-client',
      '@modelcontextprotocol/sdk',
      '@opentelemetry/sdk-trace-base',
      'ai',
    ]);
  });
});
