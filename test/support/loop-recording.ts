import type { AgentLoopObserver, AgentLoopRequest } from '../../src/execution/agent-loop/agent-loop';
import { loadProviderConfig } from '../../src/config/provider-config';
import { ModelProviders } from '../../src/models/model-providers';
import type { RunnableTool } from '../../src/tools/tool';

/** An agent loop's observer that records what the loop reports, in order: tool calls and results, and the text. */
export function recordingObserver() {
  const events: string[] = [];
  const deltas: string[] = [];
  const observer: AgentLoopObserver = {
    delta: (text) => void deltas.push(text),
    toolCalled: async (call) => void events.push(`called ${call.tool} ${call.id} ${JSON.stringify(call.input)}`),
    toolReturned: async (result) =>
      void events.push(
        `returned ${result.tool} ${result.id} ${result.error !== undefined ? `error: ${result.error}` : JSON.stringify(result.output)}`,
      ),
  };
  return { observer, events, deltas };
}

/** A `current_time` tool that runs `execute`. */
export const clockTool = (execute: RunnableTool['execute']): RunnableTool => ({
  id: 'current_time',
  modelName: 'current_time',
  description: 'The current time in a time zone.',
  inputSchema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
  execute,
});

/** A loop request for `openai-compatible/test-model` asking what time it is in Paris, with `overrides`. */
export const loopRequest = (overrides: Partial<AgentLoopRequest> = {}): AgentLoopRequest => ({
  model: 'openai-compatible/test-model',
  instructions: 'Be brief.',
  task: 'What time is it in Paris?',
  context: {},
  tools: [],
  maxSteps: 5,
  signal: new AbortController().signal,
  ...overrides,
});

/** The providers of a scripted OpenAI-compatible server at `baseUrl` (a test double), retrying fast. */
export const scriptedProviders = (baseUrl: string, env: Record<string, string> = {}) =>
  new ModelProviders(
    loadProviderConfig({
      OPENAI_COMPATIBLE_BASE_URL: baseUrl,
      MODEL_MAX_RETRIES: '2',
      MODEL_RETRY_BASE_DELAY_MS: '1',
      MODEL_RETRY_MAX_DELAY_MS: '20',
      ...env,
    }),
  );
