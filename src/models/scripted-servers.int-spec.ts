import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, tool } from 'ai';
import { startScriptedAnthropicServer } from '../../test/support/scripted-anthropic-server';
import { startScriptedOpenAIServer } from '../../test/support/scripted-model-server';

/** The scripted servers' non-streamed answers, read by the real AI SDK providers. */
describe('scripted model servers, non-streamed', () => {
  const weather = {
    weather: tool({
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
    }),
  };

  it('answers Chat Completions with text and with tool calls', async () => {
    const server = await startScriptedOpenAIServer();
    try {
      server.enqueue(
        { kind: 'text', text: ['Hello', ' there'], usage: { inputTokens: 4, outputTokens: 2 } },
        { kind: 'toolCalls', calls: [{ id: 'call_7', name: 'weather', arguments: { city: 'Oslo' } }] },
      );
      const model = createOpenAICompatible({ name: 'scripted', baseURL: server.baseUrl })('m');

      const text = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      const calls = await generateText({ model, prompt: 'weather?', tools: weather, maxRetries: 0 });

      expect(text.text).toBe('Hello there');
      expect(text.usage).toMatchObject({ inputTokens: 4, outputTokens: 2 });
      expect(calls.toolCalls).toMatchObject([{ toolCallId: 'call_7', toolName: 'weather', input: { city: 'Oslo' } }]);
      expect(server.requests.map((r) => r.stream ?? false)).toEqual([false, false]);
    } finally {
      await server.close();
    }
  });

  it('answers Anthropic Messages with text and with tool use', async () => {
    const server = await startScriptedAnthropicServer();
    try {
      server.enqueue(
        { kind: 'text', text: 'Hello', usage: { inputTokens: 4, outputTokens: 1 } },
        { kind: 'toolCalls', calls: [{ id: 'toolu_7', name: 'weather', arguments: { city: 'Oslo' } }] },
      );
      const model = createAnthropic({ apiKey: 'k', baseURL: server.baseUrl })('claude-sonnet-4-5');

      const text = await generateText({ model, prompt: 'hi', maxRetries: 0 });
      const calls = await generateText({ model, prompt: 'weather?', tools: weather, maxRetries: 0 });

      expect(text.text).toBe('Hello');
      expect(text.usage).toMatchObject({ inputTokens: 4, outputTokens: 1 });
      expect(calls.toolCalls).toMatchObject([{ toolCallId: 'toolu_7', toolName: 'weather', input: { city: 'Oslo' } }]);
    } finally {
      await server.close();
    }
  });

  it('closes with a request still hanging', async () => {
    const server = await startScriptedOpenAIServer(() => ({ kind: 'hang' }));
    const pending = fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{"model":"m","messages":[]}',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));

    await server.close();

    await expect(pending).rejects.toThrow();
  });
});
