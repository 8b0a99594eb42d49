import type { AgentRunQueued, AgentRunStarted } from '../../src/agents/agent-run/agent-run.events';

/** The run the agent run decider's specs start from: queued, then claimed by executor `x1`. */
export const now = new Date('2026-01-01T00:01:00.000Z');
export const at = now.toISOString();
/** Every ending names the run's agent and model. */
export const OF_RUN = { agentId: 'agent_1', model: 'openai-compatible/m' };
export const usage = { inputTokens: 3, outputTokens: 5 };

export const queued: AgentRunQueued = {
  type: 'AgentRunQueued',
  data: {
    id: 'agentrun_1',
    agentId: 'agent_1',
    model: 'openai-compatible/m',
    agentVersion: 1,
    task: 'Summarise',
    context: { url: 'https://example.com' },
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};

export const started: AgentRunStarted = {
  type: 'AgentRunStarted',
  data: { runId: 'agentrun_1', executorId: 'x1', warnings: [], agentVersion: 2, startedAt: '2026-01-01T00:00:01.000Z' },
};
