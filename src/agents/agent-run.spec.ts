import { given } from '../../test/support/decider-specification';
import { AgentRunQueued, agentRunDecider } from './agent-run';

const now = new Date('2026-01-01T00:00:00.000Z');
const queued: AgentRunQueued = {
  type: 'AgentRunQueued',
  data: {
    id: 'agentrun_1',
    agentId: 'agent_1',
    task: 'Summarise',
    context: { url: 'https://example.com' },
    createdAt: now.toISOString(),
  },
};

describe('agent run decider', () => {
  it('queues a run', () => {
    given(agentRunDecider, [])
      .when(
        {
          type: 'QueueAgentRun',
          id: 'agentrun_1',
          agentId: 'agent_1',
          task: 'Summarise',
          context: { url: 'https://example.com' },
        },
        now,
      )
      .then([queued]);
  });

  it('refuses to queue the same run twice', () => {
    given(agentRunDecider, [queued])
      .when({ type: 'QueueAgentRun', id: 'agentrun_1', agentId: 'agent_1', task: 'x', context: {} })
      .thenRefuses('conflict');
  });

  it('evolves into a queued run', () => {
    given(agentRunDecider, [queued]).thenState({ ...queued.data, status: 'queued' });
  });
});
