import type { AgentLoopObserver } from '../../src/execution/agent-loop/agent-loop';
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
