import {
  AnthropicMessagesBody,
  anthropicToolResults,
  hasAnthropicToolResult,
  startScriptedAnthropicServer,
} from '../../../test/support/scripted-anthropic-server';
import type { ScriptedServer } from '../../../test/support/scripted-model-server';
import { AgentLoopObserver, AgentLoopRequest, runAgentLoop } from './agent-loop';
import { ModelProviders } from '../../models/model-providers';
import { loadProviderConfig } from '../../config/provider-config';

describe('runAgentLoop against a scripted Anthropic Messages server', () => {
  let server: ScriptedServer<AnthropicMessagesBody>;
  let providers: ModelProviders;
  const deltas: string[] = [];
  const events: string[] = [];
  const observer: AgentLoopObserver = {
    delta: (text) => void deltas.push(text),
    toolCalled: async (call) => void events.push(`called ${call.tool} ${JSON.stringify(call.input)}`),
    toolReturned: async (result) => void events.push(`returned ${result.tool} ${JSON.stringify(result.output)}`),
  };
  const request = (overrides: Partial<AgentLoopRequest> = {}): AgentLoopRequest => ({
    model: 'anthropic/claude-sonnet-4-5',
    instructions: 'Be brief.',
    task: 'Say hello.',
    context: {},
    tools: [],
    maxSteps: 4,
    signal: new AbortController().signal,
    ...overrides,
  });

  beforeEach(async () => {
    deltas.length = 0;
    events.length = 0;
    server = await startScriptedAnthropicServer();
    // The origin without /v1, as Anthropic's own SDK takes it: the config adds /v1 for the AI SDK.
    const origin = server.baseUrl.replace(/\/v1$/, '');
    providers = new ModelProviders(
      loadProviderConfig({
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: origin,
        MODEL_RETRY_BASE_DELAY_MS: '1',
      }),
    );
  });

  afterEach(() => server.close());

  it('streams a text answer with usage', async () => {
    server.enqueue({ kind: 'text', text: ['Hel', 'lo!'], usage: { inputTokens: 12, outputTokens: 3 } });

    const result = await runAgentLoop(request(), observer, providers);

    expect(result).toMatchObject({ output: 'Hello!', usage: { inputTokens: 12, outputTokens: 3 }, attempts: 1 });
    expect(deltas).toEqual(['Hel', 'lo!']);
    expect(server.requests[0]).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
  });

  it('runs a tool-use round trip', async () => {
    server.respondWith((body) =>
      hasAnthropicToolResult(body)
        ? { kind: 'text', text: 'It is noon.', usage: { inputTokens: 40, outputTokens: 5 } }
        : {
            kind: 'toolCalls',
            text: 'Let me look.',
            calls: [{ id: 'toolu_1', name: 'current_time', arguments: { zone: 'UTC' } }],
            usage: { inputTokens: 30, outputTokens: 8 },
          },
    );
    const clock = {
      id: 'current_time',
      modelName: 'current_time',
      description: 'The current time.',
      inputSchema: { type: 'object', properties: { zone: { type: 'string' } } },
      execute: async () => ({ time: '12:00' }),
    };

    const result = await runAgentLoop(request({ tools: [clock] }), observer, providers);

    expect(result).toMatchObject({ output: 'It is noon.', usage: { inputTokens: 70, outputTokens: 13 }, attempts: 2 });
    expect(deltas).toEqual(['Let me look.', 'It is noon.']);
    expect(events).toEqual(['called current_time {"zone":"UTC"}', 'returned current_time {"time":"12:00"}']);
    expect(server.requests[0].tools?.map((t) => t.name)).toEqual(['current_time']);
    expect(anthropicToolResults(server.requests[1])).toEqual([{ toolUseId: 'toolu_1', content: '{"time":"12:00"}' }]);
  });

  it('keeps the status and message of an Anthropic error', async () => {
    server.enqueue({ kind: 'error', status: 401, message: 'invalid x-api-key', type: 'authentication_error' });

    await expect(runAgentLoop(request(), observer, providers)).rejects.toMatchObject({
      code: 'provider_error',
      status: 401,
      message: 'anthropic answered 401: invalid x-api-key',
    });
  });
});
