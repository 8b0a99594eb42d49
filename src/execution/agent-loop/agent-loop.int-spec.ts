import {
  ChatCompletionsBody,
  hasToolResult,
  lastUserMessage,
  ScriptedServer,
  startScriptedOpenAIServer,
  toolResults,
} from '../../../test/support/scripted-model-server';
import { clockTool, loopRequest, recordingObserver, scriptedProviders } from '../../../test/support/loop-recording';
import { runAgentLoop } from './agent-loop';
import { ATTEMPTS_HEADER, ModelProviders } from '../../models/model-providers';
import { ModelRunError } from '../../models/model-run-error';
import { loadProviderConfig } from '../../config/provider-config';

describe('runAgentLoop against a scripted OpenAI-compatible server', () => {
  let server: ScriptedServer<ChatCompletionsBody>;
  let providers: ModelProviders;

  beforeEach(async () => {
    server = await startScriptedOpenAIServer();
    providers = scriptedProviders(server.baseUrl, { OPENAI_COMPATIBLE_API_KEY: 'test-key' });
  });

  afterEach(() => server.close());

  const request = loopRequest;

  /** Both ways of making a model call: streamed, and (no one follows the run) one request and one answer. */
  const bothWays = [
    ['streamed', () => true],
    ['not streamed', () => false],
  ] as const;

  it('calls a tool, gives the model its result, and returns the answer with usage summed over steps', async () => {
    server.respondWith((body) =>
      hasToolResult(body)
        ? { kind: 'text', text: ['It is ', '12:00 ', 'in Paris.'], usage: { inputTokens: 30, outputTokens: 7 } }
        : {
            kind: 'toolCalls',
            calls: [{ id: 'call_1', name: 'current_time', arguments: { zone: 'Europe/Paris' } }],
            usage: { inputTokens: 20, outputTokens: 4 },
          },
    );
    const { observer, events, deltas } = recordingObserver();
    const tool = clockTool(async (input) => {
      events.push(`ran with ${JSON.stringify(input)}`);
      return { time: '12:00' };
    });

    const result = await runAgentLoop(
      request({ tools: [{ ...tool, id: 'builtin:current_time' }], context: { city: 'Paris' } }),
      observer,
      providers,
    );

    expect(result).toEqual({
      output: 'It is 12:00 in Paris.',
      usage: { inputTokens: 50, outputTokens: 11 },
      attempts: 2,
      modelAttempts: [{ model: 'openai-compatible/test-model', usage: { inputTokens: 50, outputTokens: 11 } }],
      answeredModel: 'openai-compatible/test-model',
    });
    expect(deltas).toEqual(['It is ', '12:00 ', 'in Paris.']);
    expect(events).toEqual([
      'called builtin:current_time call_1 {"zone":"Europe/Paris"}',
      'ran with {"zone":"Europe/Paris"}',
      'returned builtin:current_time call_1 {"time":"12:00"}',
    ]);
    const [first, second] = server.requests;
    expect(first.stream).toBe(true);
    expect(first.stream_options).toEqual({ include_usage: true });
    expect(first.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(lastUserMessage(first)).toBe('What time is it in Paris?\n\nContext (JSON):\n{\n  "city": "Paris"\n}');
    expect(first.tools?.map((t) => t.function.name)).toEqual(['current_time']);
    expect(toolResults(second)).toEqual([{ toolCallId: 'call_1', content: '{"time":"12:00"}' }]);
  });

  it('gives the model an error result when a tool fails, and goes on', async () => {
    server.respondWith((body) =>
      hasToolResult(body)
        ? { kind: 'text', text: 'The clock is broken.' }
        : { kind: 'toolCalls', calls: [{ id: 'call_9', name: 'current_time', arguments: { zone: 'UTC' } }] },
    );
    const { observer, events } = recordingObserver();
    const failing = clockTool(async () => {
      throw new Error('MCP server went away');
    });

    const result = await runAgentLoop(request({ tools: [failing] }), observer, providers);

    expect(result.output).toBe('The clock is broken.');
    expect(events).toEqual([
      'called current_time call_9 {"zone":"UTC"}',
      'returned current_time call_9 error: MCP server went away',
    ]);
    expect(toolResults(server.requests[1])).toEqual([
      { toolCallId: 'call_9', content: '{"error":"MCP server went away"}' },
    ]);
  });

  it.each(bothWays)(
    'reports a call to a tool the agent does not have as an error and goes on (%s)',
    async (_, streams) => {
      server.respondWith((body) =>
        hasToolResult(body)
          ? { kind: 'text', text: 'Sorry.' }
          : { kind: 'toolCalls', calls: [{ id: 'call_x', name: 'launch_rockets', arguments: {} }] },
      );
      const { observer, events } = recordingObserver();

      const result = await runAgentLoop(
        request({ tools: [clockTool(async () => 'now')], streams }),
        observer,
        providers,
      );

      expect(result.output).toBe('Sorry.');
      expect(events[0]).toBe('called launch_rockets call_x {}');
      expect(events[1]).toMatch(/^returned launch_rockets call_x error: .*launch_rockets/);
    },
  );

  it('retries a 429 and succeeds on the second attempt', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'Rate limit reached', retryAfter: '0' },
      { kind: 'text', text: 'Hello.' },
    );

    const result = await runAgentLoop(request(), recordingObserver().observer, providers);

    expect(result).toMatchObject({ output: 'Hello.', attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it("counts each run's attempts apart, and its counter's header never reaches the provider", async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'Rate limit reached', retryAfter: '0' },
      { kind: 'text', text: 'Hello.' },
      { kind: 'text', text: 'Hi.' },
    );

    const retried = await runAgentLoop(request(), recordingObserver().observer, providers);
    const direct = await runAgentLoop(request(), recordingObserver().observer, providers);

    expect([retried.attempts, direct.attempts]).toEqual([2, 1]);
    expect(server.requestHeaders).toHaveLength(3);
    for (const headers of server.requestHeaders) expect(headers).not.toHaveProperty(ATTEMPTS_HEADER);
  });

  it('gives up on a 500 after the retries, keeping the status and the message', async () => {
    server.respondWith(() => ({ kind: 'error', status: 500, message: 'The server had an error' }));

    const error = await runAgentLoop(request(), recordingObserver().observer, providers).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ModelRunError);
    expect(error).toMatchObject({
      code: 'provider_error',
      status: 500,
      message: 'openai-compatible answered 500: The server had an error',
    });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    server.enqueue({ kind: 'error', status: 400, message: 'Invalid model', type: 'invalid_request_error' });

    await expect(runAgentLoop(request(), recordingObserver().observer, providers)).rejects.toMatchObject({
      code: 'provider_error',
      status: 400,
      message: 'openai-compatible answered 400: Invalid model',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when the signal fires mid-stream, exposing its reason', async () => {
    server.enqueue({ kind: 'text', text: ['one ', 'two ', 'three ', 'four'], chunkDelayMs: 2_000 });
    const controller = new AbortController();
    const { observer, deltas } = recordingObserver();
    const firstDelta = observer.delta;
    let abortedAt = 0;
    observer.delta = (text) => {
      firstDelta(text);
      abortedAt = Date.now();
      controller.abort(new Error('cancelled by user'));
    };

    const error = await runAgentLoop(request({ signal: controller.signal }), observer, providers).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ code: 'aborted' });
    expect((error as ModelRunError).reason).toEqual(new Error('cancelled by user'));
    expect(deltas).toEqual(['one ']);
    expect(Date.now() - abortedAt).toBeLessThan(1_000); // the next chunk would come 2 s later
  });

  it.each(bothWays)(
    'stops at once when the signal fires while the provider has not answered (%s)',
    async (_, streams) => {
      server.enqueue({ kind: 'hang' });
      const started = Date.now();

      const error = await runAgentLoop(
        request({ signal: AbortSignal.timeout(30), streams }),
        recordingObserver().observer,
        providers,
      ).catch((e: unknown) => e);

      expect(error).toMatchObject({ code: 'aborted' });
      expect((error as ModelRunError).reason).toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(2_000);
    },
  );

  it('stops waiting between retries when the signal fires', async () => {
    const controller = new AbortController();
    server.respondWith(() => {
      setTimeout(() => controller.abort(new Error('time limit')), 20);
      return { kind: 'error', status: 503, message: 'Overloaded', retryAfter: '10' };
    });
    const slowRetries = new ModelProviders(
      loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: server.baseUrl, MODEL_RETRY_MAX_DELAY_MS: '10000' }),
    );
    const started = Date.now();

    const error = await runAgentLoop(
      request({ signal: controller.signal }),
      recordingObserver().observer,
      slowRetries,
    ).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'aborted', reason: new Error('time limit') });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('is provider_unreachable when nothing listens', async () => {
    const closed = await startScriptedOpenAIServer();
    await closed.close();
    const unreachable = new ModelProviders(loadProviderConfig({ OPENAI_COMPATIBLE_BASE_URL: closed.baseUrl }));

    await expect(runAgentLoop(request(), recordingObserver().observer, unreachable)).rejects.toMatchObject({
      code: 'provider_unreachable',
      message: expect.stringMatching(/^openai-compatible is unreachable: .*ECONNREFUSED/),
    });
  });

  it.each([
    ['openai/gpt-4o-mini', 'OPENAI_API_KEY'],
    ['anthropic/claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['openai-compatible/x', 'OPENAI_COMPATIBLE_BASE_URL'],
  ])('fails %s with provider_not_configured naming %s', async (model, variable) => {
    const bare = new ModelProviders(loadProviderConfig({}));

    const error = await runAgentLoop(request({ model }), recordingObserver().observer, bare).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ModelRunError);
    expect(error).toMatchObject({ code: 'provider_not_configured' });
    expect((error as Error).message).toContain(variable);
  });

  it('fails an unknown provider with provider_not_configured listing the known ones', async () => {
    await expect(
      runAgentLoop(request({ model: 'mistral/large' }), recordingObserver().observer, providers),
    ).rejects.toMatchObject({
      code: 'provider_not_configured',
      message: expect.stringContaining('openai, anthropic, ollama'),
    });
  });

  it.each(bothWays)('rethrows an observer failure as it is and stops the run (%s)', async (_, streams) => {
    server.respondWith(() => ({ kind: 'toolCalls', calls: [{ name: 'current_time', arguments: { zone: 'UTC' } }] }));
    const { observer } = recordingObserver();
    observer.toolCalled = async () => {
      throw new Error('event store is down');
    };
    const execute = jest.fn(async () => 'now');

    await expect(runAgentLoop(request({ tools: [clockTool(execute)], streams }), observer, providers)).rejects.toThrow(
      'event store is down',
    );
    expect(execute).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(1);
  });

  it('drives openai/ and ollama/ models through the same Chat Completions wire format', async () => {
    const viaOpenAI = new ModelProviders(
      loadProviderConfig({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseUrl,
        OLLAMA_BASE_URL: server.baseUrl,
      }),
    );
    server.respondWith((body) => ({
      kind: 'text',
      text: `hi from ${body.model}`,
      usage: { inputTokens: 3, outputTokens: 2 },
    }));

    const openai = await runAgentLoop(
      request({ model: 'openai/gpt-4o-mini' }),
      recordingObserver().observer,
      viaOpenAI,
    );
    const ollama = await runAgentLoop(request({ model: 'ollama/llama3.2' }), recordingObserver().observer, viaOpenAI);

    expect(openai).toMatchObject({ output: 'hi from gpt-4o-mini', answeredModel: 'openai/gpt-4o-mini', attempts: 1 });
    expect(ollama).toMatchObject({ output: 'hi from llama3.2', answeredModel: 'ollama/llama3.2', attempts: 1 });
    expect([openai.usage, ollama.usage]).toEqual([
      { inputTokens: 3, outputTokens: 2 },
      { inputTokens: 3, outputTokens: 2 },
    ]);
    expect(server.requests.map((r) => r.stream_options)).toEqual([{ include_usage: true }, { include_usage: true }]);
  });
});
