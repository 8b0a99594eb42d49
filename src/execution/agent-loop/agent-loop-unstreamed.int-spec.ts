import {
  ChatCompletionsBody,
  ScriptedServer,
  hasToolResult,
  startScriptedOpenAIServer,
  toolResults,
} from '../../../test/support/scripted-model-server';
import { clockTool, loopRequest, recordingObserver, scriptedProviders } from '../../../test/support/loop-recording';
import { AgentLoopRequest, runAgentLoop } from './agent-loop';
import { ModelProviders } from '../../models/model-providers';

/**
 * The loop's model calls made without streaming (`streams` says no one reads the text as it comes), against a
 * scripted OpenAI-compatible server (a test double for a paid provider) answering them with one JSON body. What
 * both ways share (refused calls, aborts, observer failures) is tested both ways in agent-loop.int-spec.ts.
 */
describe('runAgentLoop without streaming', () => {
  let server: ScriptedServer<ChatCompletionsBody>;
  let providers: ModelProviders;

  beforeEach(async () => {
    server = await startScriptedOpenAIServer();
    providers = scriptedProviders(server.baseUrl);
  });

  afterEach(() => server.close());

  const request = (overrides: Partial<AgentLoopRequest> = {}) => loopRequest({ streams: () => false, ...overrides });

  const clockThenAnswer = (body: ChatCompletionsBody) =>
    hasToolResult(body)
      ? { kind: 'text' as const, text: ['It is ', '12:00 ', 'in Paris.'], usage: { inputTokens: 30, outputTokens: 7 } }
      : {
          kind: 'toolCalls' as const,
          calls: [{ id: 'call_1', name: 'current_time', arguments: { zone: 'Europe/Paris' } }],
          usage: { inputTokens: 20, outputTokens: 4 },
        };

  it('runs the tool loop with one answer per step, and tells each step its text whole', async () => {
    server.respondWith(clockThenAnswer);
    const { observer, events, deltas } = recordingObserver();
    const tool = clockTool(async () => ({ time: '12:00' }));

    const result = await runAgentLoop(request({ tools: [tool] }), observer, providers);

    expect(result).toEqual({
      output: 'It is 12:00 in Paris.',
      usage: { inputTokens: 50, outputTokens: 11 },
      attempts: 2,
      modelAttempts: [{ model: 'openai-compatible/test-model', usage: { inputTokens: 50, outputTokens: 11 } }],
      answeredModel: 'openai-compatible/test-model',
    });
    expect(deltas).toEqual(['It is 12:00 in Paris.']);
    expect(events).toEqual([
      'called current_time call_1 {"zone":"Europe/Paris"}',
      'returned current_time call_1 {"time":"12:00"}',
    ]);
    expect(server.requests.map((body) => body.stream ?? false)).toEqual([false, false]);
    expect(toolResults(server.requests[1])).toEqual([{ toolCallId: 'call_1', content: '{"time":"12:00"}' }]);
  });

  it('asks at each model call: a repair turn made once someone follows the run streams', async () => {
    server.enqueue({ kind: 'text', text: 'about noon' }, { kind: 'text', text: ['{"time":', '"12:00"}'] });
    const { observer, deltas } = recordingObserver();
    const streams = jest.fn().mockReturnValueOnce(false).mockReturnValue(true);
    const schema = { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] };

    const result = await runAgentLoop(request({ outputSchema: schema, streams }), observer, providers);

    expect(result).toMatchObject({ outputObject: { time: '12:00' } });
    expect(server.requests.map((body) => body.stream ?? false)).toEqual([false, true]);
    expect(deltas).toEqual(['about noon', '{"time":', '"12:00"}']);
  });

  it('repairs an answer that does not match the output schema, once', async () => {
    server.enqueue({ kind: 'text', text: 'about noon' }, { kind: 'text', text: '{"time":"12:00"}' });
    const schema = { type: 'object', properties: { time: { type: 'string' } }, required: ['time'] };

    const result = await runAgentLoop(request({ outputSchema: schema }), recordingObserver().observer, providers);

    expect(result).toMatchObject({ output: '{"time":"12:00"}', outputObject: { time: '12:00' }, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((body) => body.stream ?? false)).toEqual([false, false]);
  });

  it('goes on with the fallback model when the first fails by the provider', async () => {
    server.respondWith((body) =>
      body.model === 'test-model'
        ? { kind: 'error', status: 503, message: 'overloaded' }
        : { kind: 'text', text: `answered by ${body.model}` },
    );

    const result = await runAgentLoop(
      request({ fallbackModels: ['openai-compatible/backup'] }),
      recordingObserver().observer,
      providers,
    );

    expect(result.output).toBe('answered by backup');
    expect(result.answeredModel).toBe('openai-compatible/backup');
    expect(result.modelAttempts.map((attempt) => attempt.model)).toEqual([
      'openai-compatible/test-model',
      'openai-compatible/backup',
    ]);
  });
});
